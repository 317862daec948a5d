package io.aasm.backend.container.internal.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One container's guard (src/main/c/GUARD.md): a small process outside the JVM holding the read end of a
 * pipe only this JVM writes. When the supervisor ends the launch itself it says "done"; when the supervisor
 * dies however it dies, the pipe ends and the guard removes the container, which kills everything in it.
 */
public final class Lifeline implements AutoCloseable {
    private final Process guard;
    private final OutputStream pipe;

    private Lifeline(Process guard) {
        this.guard = guard;
        this.pipe = guard.getOutputStream();
    }

    public static Lifeline start(Path guard, Path engineSocket, String apiPrefix, String containerId) throws IOException {
        Process p = new ProcessBuilder(List.of(guard.toString(), engineSocket.toString(), apiPrefix, containerId))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        InputStream out = p.getInputStream();
        byte[] ready = new byte[6];
        int n = 0;
        while (n < ready.length) {
            int r = out.read(ready, n, ready.length - n);
            if (r < 0) {
                break;
            }
            n += r;
        }
        if (!new String(ready, 0, n, StandardCharsets.US_ASCII).equals("ready\n")) {
            p.destroyForcibly();
            throw new IOException("the container's guard did not start (exit " + exitOf(p) + ")");
        }
        return new Lifeline(p);
    }

    private static String exitOf(Process p) {
        try {
            return p.waitFor(2, TimeUnit.SECONDS) ? Integer.toString(p.exitValue()) : "none";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "none";
        }
    }

    public long pid() {
        return guard.pid();
    }

    /** The container is gone: the guard exits without touching the engine. */
    @Override
    public void close() {
        try {
            pipe.write("done\n".getBytes(StandardCharsets.US_ASCII));
            pipe.close();
        } catch (IOException e) {
            // the guard is gone already (it would have removed the container)
        }
        try {
            if (!guard.waitFor(5, TimeUnit.SECONDS)) {
                guard.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
