package io.aasm.backend.vm.internal.guest;

/**
 * Frame types of the host-guest protocol, version 1 (src/main/c/guest/PROTOCOL.md). Host-to-guest and
 * guest-to-host frames use separate letters; the values are the wire bytes.
 */
public final class FrameType {
    public static final int VERSION = 1;

    /** Host to guest: the plan ("AAVP", u16 version, records). */
    public static final int PLAN = 'P';
    public static final int STDIN = 'I';
    public static final int STDIN_EOF = 'i';
    /** u8 signal, u8 target (0 the program, 1 its process group, 2 the whole tree). */
    public static final int SIGNAL = 'K';
    public static final int PING = 'q';

    /** Guest to host: key=value lines about the guest (protocol, kernel, Landlock ABI, boot timings). */
    public static final int HELLO = 'H';
    /** "token:detail": nothing was executed. */
    public static final int REFUSED = 'R';
    /** key=value lines: timings, the program's authority, its descriptors. */
    public static final int STARTED = 'S';
    /** the decimal errno of the failed execve. */
    public static final int EXEC_FAILED = 'F';
    public static final int STDOUT = 'O';
    public static final int STDERR = 'E';
    /** "code:N" or "signal:N", then key=value lines. */
    public static final int EXIT = 'X';
    public static final int PONG = 'p';

    /** The guest never writes a larger payload; the host never sends one larger than {@link #HOST_MAX}. */
    public static final int GUEST_MAX = 65536;
    public static final int HOST_MAX = 8 << 20;

    private FrameType() {
    }
}
