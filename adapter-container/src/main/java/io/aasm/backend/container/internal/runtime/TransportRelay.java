package io.aasm.backend.container.internal.runtime;

import io.aasm.ports.transport.RelayEndpoint;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The transport relay of one mediated container (src/main/c/RELAY.md): a small static process of the
 * supervisor, outside the container, that listens at {@code 127.0.0.1:port} inside the container's network
 * namespace and carries each connection to the launch's mediation session. The session's socket is never
 * bound into the container, and the credential reaches the relay on a pipe (never a command line). The pipe
 * is also its lifeline: closing it (the launch is over, or this JVM died) ends the relay and every connection.
 */
public final class TransportRelay implements AutoCloseable {
    private static final long READY_SECONDS = 10;

    /** What a mediated launch relays: the bundled relay, the in-container port, the kernel's session endpoint. */
    public record Setup(Path binary, int port, RelayEndpoint session) {
    }

    private final Process process;
    private final boolean ipv6;

    private TransportRelay(Process process, boolean ipv6) {
        this.process = process;
        this.ipv6 = ipv6;
    }

    /**
     * Starts the relay for the started container {@code id} whose first process is {@code pid}, and returns once
     * it listens (the container's first process waits for that before the program starts).
     */
    public static TransportRelay open(Path binary, long pid, String id, int port, RelayEndpoint session)
            throws IOException {
        Process p = new ProcessBuilder(List.of(binary.toString(), "relay", Long.toString(pid), id,
                Integer.toString(port), session.socket().toString())).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            OutputStream in = p.getOutputStream();
            byte[] preamble = session.preamble();
            in.write(preamble.length);
            in.write(preamble);
            in.flush();
            java.util.Arrays.fill(preamble, (byte) 0);
            String line = firstLine(p.getInputStream());
            if (!line.startsWith("ready ")) {
                throw new IOException("the transport relay did not start: " + (line.isEmpty() ? "exit "
                        + exit(p) : line.replaceFirst("^error ", "")));
            }
            return new TransportRelay(p, line.equals("ready 1"));
        } catch (IOException | RuntimeException e) {
            p.destroyForcibly();
            throw e;
        }
    }

    /** The relay for a container the engine has just started (its first process waits for the listener). */
    public static TransportRelay forContainer(io.aasm.backend.container.internal.engine.Engine engine, String id,
                                              Setup setup) throws IOException {
        long pid = engine.inspect(id).map(c -> c.path("State").path("Pid").asLong(0)).orElse(0L);
        if (pid <= 0) {
            throw new IOException("the engine names no running first process for container " + id + " (it ended "
                    + "before its transport relay could start)");
        }
        return open(setup.binary(), pid, id, setup.port(), setup.session());
    }

    /** Whether the relay listens on {@code [::1]} as well (the container's namespace has an IPv6 loopback). */
    public boolean ipv6() {
        return ipv6;
    }

    public long pid() {
        return process.pid();
    }

    /** Ends the relay and every connection it carries; idempotent. */
    @Override
    public void close() {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // already gone
        }
        try {
            if (!process.waitFor(3, TimeUnit.SECONDS)) { // it drains for at most 2 s
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** The relay's first line, within {@link #READY_SECONDS} (a relay that hangs is not waited for forever). */
    private static String firstLine(InputStream out) throws IOException {
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            try {
                for (int c = out.read(); c >= 0 && c != '\n' && b.size() < 512; c = out.read()) {
                    b.write(c);
                }
            } catch (IOException e) {
                // end of the stream: what was read is the answer
            }
            return b.toString(StandardCharsets.UTF_8);
        });
        try {
            return line.get(READY_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new IOException("the transport relay did not answer within " + READY_SECONDS + " s");
        } catch (ExecutionException e) {
            throw new IOException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    private static String exit(Process p) {
        try {
            return p.waitFor(2, TimeUnit.SECONDS) ? Integer.toString(p.exitValue()) : "none";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "none";
        }
    }
}
