package io.aasm.ports.capability;

/** What kind of kernel the confined program shares with the host. */
public enum PlatformBoundary implements Token {
    /** A confined process on the host's kernel (Landlock, seccomp, namespaces). */
    SHARED_HOST_KERNEL("shared_host_kernel"),
    /** A container of an engine: still the host's kernel, behind the engine's namespaces and profiles. */
    CONTAINER("container"),
    /** A kernel implemented in user space (gVisor-like) between the program and the host's. */
    USERSPACE_KERNEL("userspace_kernel"),
    /** A guest kernel of its own in a virtual machine. */
    SEPARATE_KERNEL("separate_kernel");

    private final String token;

    PlatformBoundary(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
