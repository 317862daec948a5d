package io.aasm.backend.vm.internal.guest;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The host side of one launch over a guest's control channel: the plan goes out, the guest's answer comes
 * back, then one thread copies the program's output frames to the caller's streams and another pumps the
 * caller's stdin into frames, until the exit frame (or the end of the channel) ends the launch.
 */
public final class GuestSession implements AutoCloseable {
    /** Where the program's stdout or stderr goes. */
    public interface Output {
        void write(byte[] b, int off, int len) throws IOException;
    }

    /** The caller's stdin: bytes read, 0 when nothing came within a short wait, -1 at its end. */
    public interface Input {
        int read(byte[] buf) throws IOException;
    }

    /** Takes the frames of the proxy port's streams (PROTOCOL.md, "Egress"); false for any other frame. */
    public interface StreamSink {
        boolean accept(Frame f);
    }

    private final FrameChannel channel;
    private volatile StreamSink streams = f -> false;
    private final CompletableFuture<GuestEnd> end = new CompletableFuture<>();
    private final AtomicBoolean relaying = new AtomicBoolean();

    public GuestSession(FrameChannel channel) {
        this.channel = channel;
    }

    /** Waits for the guest's hello (the first frame of a freshly booted guest). */
    public Hello hello() throws IOException {
        Optional<Frame> f = channel.read();
        if (f.isEmpty() || f.get().type() != FrameType.HELLO) {
            throw new IOException("the guest did not say hello" + f.map(x -> " (got " + x + ")").orElse(""));
        }
        return Hello.parse(f.get());
    }

    /** Sends the plan and waits for the guest's answer; blocks until one comes or the channel ends. */
    public StartOutcome start(byte[] plan) {
        try {
            channel.write(FrameType.PLAN, plan);
            while (true) {
                Optional<Frame> f = channel.read();
                if (f.isEmpty()) {
                    return new StartOutcome.Lost("the guest's channel closed before it answered the plan");
                }
                Frame x = f.get();
                switch (x.type()) {
                    case FrameType.STARTED:
                        return new StartOutcome.Started(x.fields());
                    case FrameType.REFUSED: {
                        String t = x.text();
                        int colon = t.indexOf(':');
                        return colon < 0 ? new StartOutcome.Refused("internal", t)
                                : new StartOutcome.Refused(t.substring(0, colon), t.substring(colon + 1));
                    }
                    case FrameType.EXEC_FAILED:
                        return new StartOutcome.ExecFailed(parseInt(x.text()));
                    default:
                        break; // a pong or a late hello: not an answer
                }
            }
        } catch (IOException e) {
            return new StartOutcome.Lost("the guest's channel failed: " + e.getMessage());
        }
    }

    /** Where the proxy port's stream frames go; set before {@link #relay}. Without it they are dropped. */
    public void streams(StreamSink sink) {
        this.streams = sink;
    }

    /** The channel the session speaks on (a stream sink answers on it). */
    public FrameChannel channel() {
        return channel;
    }

    /** Starts copying output and pumping stdin; the launch ends with {@link #awaitEnd}. Call once. */
    public void relay(Input stdin, Output stdout, Output stderr) {
        if (!relaying.compareAndSet(false, true)) {
            throw new IllegalStateException("already relaying");
        }
        thread("aasm-vm-output", () -> readUntilEnd(stdout, stderr)).start();
        thread("aasm-vm-stdin", () -> pump(stdin)).start();
    }

    private void readUntilEnd(Output stdout, Output stderr) {
        boolean outOpen = true;
        boolean errOpen = true;
        try {
            while (!end.isDone()) {
                Optional<Frame> f = channel.read();
                if (f.isEmpty()) {
                    end.complete(new GuestEnd.Lost("the VM ended without an exit report"));
                    return;
                }
                Frame x = f.get();
                if (streams.accept(x)) {
                    continue;
                }
                if (x.type() == FrameType.STDOUT && outOpen) {
                    outOpen = copy(stdout, x);
                } else if (x.type() == FrameType.STDERR && errOpen) {
                    errOpen = copy(stderr, x);
                } else if (x.type() == FrameType.EXIT) {
                    end.complete(GuestEnd.parse(x));
                }
            }
        } catch (IOException e) {
            end.complete(new GuestEnd.Lost("the VM's channel ended: " + e.getMessage()));
        }
    }

    /** A caller that closed its stream gets nothing more; the program's output is still drained. */
    private static boolean copy(Output to, Frame f) {
        try {
            to.write(f.payload(), 0, f.payload().length);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void pump(Input stdin) {
        byte[] buf = new byte[32768];
        try {
            while (!end.isDone()) {
                int n = stdin.read(buf);
                if (n < 0) {
                    channel.write(FrameType.STDIN_EOF, new byte[0]);
                    return;
                }
                if (n > 0) {
                    channel.write(FrameType.STDIN, buf, 0, n);
                }
            }
        } catch (IOException e) {
            // the caller's stdin failed or the VM is gone: the program sees its stdin end with the VM
        }
    }

    /** Sends a signal (target 0 the program, 1 its process group, 2 the whole tree); false when it cannot. */
    public boolean signal(int signal, int target) {
        if (end.isDone()) {
            return false;
        }
        try {
            channel.write(FrameType.SIGNAL, new byte[] {(byte) signal, (byte) target});
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public Optional<GuestEnd> ended() {
        return Optional.ofNullable(end.getNow(null));
    }

    /** The end, or empty when it did not come within the wait. */
    public Optional<GuestEnd> awaitEnd(long millis) throws InterruptedException {
        try {
            return Optional.of(end.get(millis, TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            return Optional.empty();
        } catch (ExecutionException e) {
            return Optional.of(new GuestEnd.Lost(String.valueOf(e.getCause())));
        }
    }

    /** Ends the launch as far as this session is concerned (the VM is being killed). */
    public void abandon(String why) {
        end.complete(new GuestEnd.Lost(why));
    }

    @Override
    public void close() {
        abandon("the session was closed");
        channel.close();
    }

    private static Thread thread(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private static int parseInt(String s) {
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
