package io.aasm.support.canary;

import java.util.List;

/** The calls a syscall canary may make, on every backend that has one. */
public final class HarmlessCalls {
    /**
     * Calls that change nothing when every argument is -1 (a bad descriptor, an unmapped pointer, impossible
     * flags) and need no capability, so only a seccomp filter answers EPERM: the syscall canary calls the first
     * of them the policy denies.
     */
    public static final List<String> WHEN_INVALID = List.of("mkdir", "mkdirat", "rmdir", "unlink", "unlinkat",
            "chdir", "fchdir", "rename", "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat", "chmod",
            "fchmod", "fchmodat", "chown", "fchown", "lchown", "fchownat", "truncate", "ftruncate", "getdents64",
            "connect", "bind", "listen", "accept", "accept4", "sendto", "recvfrom", "dup", "dup3", "flock",
            "fsync", "fdatasync", "mknod", "mknodat", "statfs", "fstatfs", "uname", "getcwd", "write", "pwrite64",
            "writev", "lseek", "ioctl", "fcntl", "madvise", "msync", "mincore");

    private HarmlessCalls() {
    }
}
