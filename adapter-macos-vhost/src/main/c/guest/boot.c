/*
 * Boot: the pseudo filesystems, the modules (finit_module in the order the image lists them: there is no
 * modprobe and no modules.dep here), loopback up, the tree's cgroup, and the control port. All of it happens
 * before the host snapshots the template, so a restored launch starts with this already done.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif

long boot_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_BOOTTIME, &t);
    return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void note(struct boot_facts *f, const char *what, int err) {
    size_t l = strlen(f->problems);
    snprintf(f->problems + l, sizeof f->problems - l, "%s%s: %s", l ? "; " : "", what, strerror(err));
}

static void mnt(struct boot_facts *f, const char *src, const char *dst, const char *type, unsigned long flags,
                const char *opts) {
    mkdir(dst, 0755);
    if (mount(src, dst, type, flags, opts) < 0 && errno != EBUSY) note(f, dst, errno);
}

static void load_modules(struct boot_facts *f) {
    FILE *order = fopen("/modules/order", "r");
    char name[256], path[300];
    if (!order) {
        note(f, "/modules/order", errno);
        return;
    }
    while (fgets(name, sizeof name, order)) {
        name[strcspn(name, "\n")] = 0;
        if (!name[0]) continue;
        snprintf(path, sizeof path, "/modules/%s", name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || (syscall(SYS_finit_module, fd, "", 0) < 0 && errno != EEXIST)) note(f, name, errno);
        if (fd >= 0) close(fd);
    }
    fclose(order);
}

static void loopback_up(struct boot_facts *f) {
    int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    strcpy(ifr.ifr_name, "lo");
    if (s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr) < 0) {
        note(f, "lo", errno);
    } else {
        ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
        if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0) note(f, "lo up", errno);
    }
    if (s >= 0) close(s);
}

static int write_text(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t w = write(fd, text, strlen(text));
    int err = errno;
    close(fd);
    errno = err;
    return w == (ssize_t)strlen(text) ? 0 : -1;
}

static void tree_cgroup(struct boot_facts *f) {
    mnt(f, "cgroup2", "/sys/fs/cgroup", "cgroup2", MS_NOSUID | MS_NODEV | MS_NOEXEC, "");
    if (write_text("/sys/fs/cgroup/cgroup.subtree_control", "+memory +pids") < 0) {
        note(f, "cgroup controllers", errno);
        return;
    }
    if (mkdir(TREE_CGROUP, 0755) < 0 && errno != EEXIST) {
        note(f, TREE_CGROUP, errno);
        return;
    }
    f->cgroup = 1;
}

void boot_system(struct boot_facts *f) {
    memset(f, 0, sizeof *f);
    f->init_ms = boot_now_ms();
    mnt(f, "devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
    mnt(f, "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "");
    mnt(f, "sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "");
    load_modules(f);
    f->modules_ms = boot_now_ms();
    loopback_up(f);
    tree_cgroup(f);
    sethostname("aasm-guest", 10);
    struct utsname u;
    if (uname(&u) == 0) snprintf(f->kernel, sizeof f->kernel, "%s", u.release);
    f->landlock_abi = syscall(SYS_landlock_create_ruleset, NULL, 0, 1);
    if (f->landlock_abi < 0) f->landlock_abi = -1;
}

/* The port's sysfs entry names it; devtmpfs creates /dev/<entry> when the driver registers it. */
static int find_port(char *dev, size_t cap) {
    DIR *d = opendir("/sys/class/virtio-ports");
    struct dirent *e;
    int found = -1;
    if (!d) return -1;
    while ((e = readdir(d))) {
        char path[512], name[64];
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "/sys/class/virtio-ports/%s/name", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        ssize_t n = read(fd, name, sizeof name - 1);
        close(fd);
        if (n > 0 && (name[n] = 0, strcmp(name, "ctl\n") == 0 || strcmp(name, "ctl") == 0)) {
            snprintf(dev, cap, "/dev/%s", e->d_name);
            found = 0;
            break;
        }
    }
    closedir(d);
    return found;
}

int boot_open_port(struct boot_facts *f) {
    char dev[300];
    for (int i = 0; i < 1000; i++) {
        if (find_port(dev, sizeof dev) == 0) {
            int fd = open(dev, O_RDWR | O_CLOEXEC);
            if (fd >= 0) {
                f->port_ms = boot_now_ms();
                return fd;
            }
        }
        usleep(10000);
    }
    return -1;
}
