/* benchmarks/steady: runs argv, then prints the CPU (user+sys, ms) of the whole child tree and the wall time */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
int main(int argc,char**argv){ struct timespec a,b; clock_gettime(CLOCK_MONOTONIC,&a);
  pid_t p=fork(); if(p==0){execv(argv[1],argv+1);_exit(127);} int st; waitpid(p,&st,0); clock_gettime(CLOCK_MONOTONIC,&b);
  struct rusage ru; getrusage(RUSAGE_CHILDREN,&ru);
  printf("trav_cpu_ms=%.1f trav_wall_ms=%.1f\n",(ru.ru_utime.tv_sec+ru.ru_stime.tv_sec)*1e3+(ru.ru_utime.tv_usec+ru.ru_stime.tv_usec)/1e3,
    (b.tv_sec-a.tv_sec)*1e3+(b.tv_nsec-a.tv_nsec)/1e6); return WEXITSTATUS(st);}
