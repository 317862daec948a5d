/* benchmarks/steady: the per-call cost of the calls a traversal makes most, in thread CPU time (robust to load):
 * getppid (bare entry), newfstatat, openat+close, pread 4 KiB, getdents64 of a 50-entry folder, a whole nftw walk
 * opening and reading every file (us), 300 files created/read/removed in SCRATCH (us per file), ioctl FIONREAD and a
 * unix datagram sendto+recv. Medians over ROUNDS; prints the Seccomp lines of /proc/self/status.
 * Usage: sysloop TREE N [ROUNDS] [SCRATCH]   (TREE holds d07/f23.txt: 40 folders x 50 files as the P3 tree) */
#define _GNU_SOURCE
#include <dirent.h>
#include <ftw.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_THREAD_CPUTIME_ID,&t);return t.tv_sec*1e9+t.tv_nsec;}
static char wbuf[8192];
static int visit(const char*p,const struct stat*s,int t,struct FTW*f){(void)s;(void)f;if(t==FTW_F){int x=open(p,O_RDONLY|O_CLOEXEC);if(x>=0){while(read(x,wbuf,sizeof wbuf)>0){}close(x);}}return 0;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  if(argc<3){fprintf(stderr,"usage: sysloop TREE N [ROUNDS]\n");return 2;}
  const char*tree=argv[1]; long n=atol(argv[2]); int R=argc>3?atoi(argv[3]):7;
  char file[4096],dir[4096]; snprintf(dir,sizeof dir,"%s/d07",tree); snprintf(file,sizeof file,"%s/d07/f23.txt",tree);
  int fd=open(file,O_RDONLY); int dfd=open(dir,O_RDONLY|O_DIRECTORY); if(fd<0||dfd<0){perror("open");return 1;}
  char buf[4096], dbuf[32768]; struct stat st;
  double res[9][64]; const char*names[9]={"getppid","stat","open_close","pread4k","getdents64","walk_us","files_us","ioctl","sendto_recv"}; int sp[2]; socketpair(AF_UNIX,SOCK_DGRAM,0,sp); const char*scratch=argc>4?argv[4]:"/tmp"; char wd[4096]; snprintf(wd,sizeof wd,"%s/sl-%d",scratch,getpid()); mkdir(wd,0700);
  for(int r=0;r<R&&r<64;r++){
    double t0=now(); for(long i=0;i<n;i++) syscall(SYS_getppid); res[0][r]=(now()-t0)/n;
    t0=now(); for(long i=0;i<n;i++) fstatat(AT_FDCWD,file,&st,0); res[1][r]=(now()-t0)/n;
    t0=now(); for(long i=0;i<n;i++){int f=openat(AT_FDCWD,file,O_RDONLY|O_CLOEXEC); close(f);} res[2][r]=(now()-t0)/n;
    t0=now(); for(long i=0;i<n;i++) pread(fd,buf,sizeof buf,0); res[3][r]=(now()-t0)/n;
    t0=now(); for(long i=0;i<n/4;i++){lseek(dfd,0,SEEK_SET); while(syscall(SYS_getdents64,dfd,dbuf,sizeof dbuf)>0){}} res[4][r]=(now()-t0)/(n/4);
    t0=now(); for(int i=0;i<3;i++) nftw(tree,visit,16,FTW_PHYS); res[5][r]=(now()-t0)/3/1000;
    t0=now(); {char p[4200]; static char pl[512]; for(int i=0;i<300;i++){snprintf(p,sizeof p,"%s/f%05d.txt",wd,i); int x=open(p,O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC,0644); write(x,pl,sizeof pl); close(x);}
      for(int i=0;i<300;i++){snprintf(p,sizeof p,"%s/f%05d.txt",wd,i); int x=open(p,O_RDONLY|O_CLOEXEC); read(x,wbuf,sizeof wbuf); close(x);}
      for(int i=0;i<300;i++){snprintf(p,sizeof p,"%s/f%05d.txt",wd,i); unlink(p);}} res[6][r]=(now()-t0)/300/1000;
    t0=now(); for(long i=0;i<n;i++){int av; ioctl(fd,FIONREAD,&av);} res[7][r]=(now()-t0)/n;
    t0=now(); for(long i=0;i<n;i++){sendto(sp[0],"x",1,0,NULL,0); recv(sp[1],buf,1,0);} res[8][r]=(now()-t0)/n;
  }
  rmdir(wd); for(int k=0;k<9;k++){qsort(res[k],R,sizeof(double),cmp); printf("%s=%.0f ",names[k],res[k][R/2]);}
  FILE*fs=fopen("/proc/self/status","r"); char l[256];
  while(fs&&fgets(l,sizeof l,fs)) if(!strncmp(l,"Seccomp",7)||!strncmp(l,"NoNewPrivs",10)||!strncmp(l,"Speculation_Store",17)) {l[strcspn(l,"\n")]=0; printf("[%s] ",l);}
  printf("\n"); return 0;}
