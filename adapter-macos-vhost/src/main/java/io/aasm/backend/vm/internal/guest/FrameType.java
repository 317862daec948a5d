package io.aasm.backend.vm.internal.guest;

/**
 * Frame types of the host-guest protocol, version 4 (src/main/c/guest/PROTOCOL.md). Host-to-guest and
 * guest-to-host frames use separate letters; the values are the wire bytes.
 */
public final class FrameType {
    public static final int VERSION = 4;

    /** Host to guest: the plan ("AAVP", u16 version, records). */
    public static final int PLAN = 'P';
    public static final int STDIN = 'I';
    public static final int STDIN_EOF = 'i';
    /** u8 signal, u8 target (0 the program, 1 its process group, 2 the whole tree). */
    public static final int SIGNAL = 'K';
    public static final int PING = 'q';
    /** u32 stream, bytes from the mediation session for one of the program's proxy connections. */
    public static final int NET_IN = 'd';
    /** u32 stream: the session side ended (or could not be reached). */
    public static final int NET_IN_EOF = 'z';
    /** u32 stream, u32 count: bytes of {@link #NET_OUT} delivered to the session (gives the guest credit back). */
    public static final int NET_IN_ACK = 'a';

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
    /** u32 stream: the program connected to the proxy port. */
    public static final int NET_OPEN = 'N';
    /** u32 stream, bytes the program sent. */
    public static final int NET_OUT = 'D';
    /** u32 stream: the program's side stopped sending. */
    public static final int NET_OUT_EOF = 'Z';
    /** u32 stream, u32 count: bytes of {@link #NET_IN} the agent wrote to the program's socket. */
    public static final int NET_OUT_ACK = 'A';

    /** Per stream and direction, at most this many bytes are in flight without an acknowledgement. */
    public static final int NET_WINDOW = 256 << 10;
    /** At most this many proxy connections are open at once; the agent resets more. */
    public static final int NET_MAX_STREAMS = 64;

    /** The guest never writes a larger payload; the host never sends one larger than {@link #HOST_MAX}. */
    public static final int GUEST_MAX = 65536;
    public static final int HOST_MAX = 8 << 20;

    private FrameType() {
    }
}
