package io.aasm.ports.capability;

/** What kind of kernel the confined program shares with the host. */
public enum PlatformBoundary implements Token {
    SHARED_HOST_KERNEL("shared_host_kernel"),
    USERSPACE_KERNEL("userspace_kernel"),
    GUEST_KERNEL("guest_kernel");

    private final String token;

    PlatformBoundary(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
