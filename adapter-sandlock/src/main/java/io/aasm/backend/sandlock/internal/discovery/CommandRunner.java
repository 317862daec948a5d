package io.aasm.backend.sandlock.internal.discovery;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a short, non-confined query command (version, check) with an empty environment and a deadline. */
public final class CommandRunner {
    /** What a query printed and how it ended; {@code exitCode} is -1 when it could not run or timed out. */
    public record Output(int exitCode, String stdout, String failure) {
    }

    private final long timeoutMillis;

    public CommandRunner(long timeoutMillis) {
        this.timeoutMillis = timeoutMillis;
    }

    public Output run(Path executable, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(executable.toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        // No caller environment: a query must not depend on, or see, the operator's variables.
        pb.environment().clear();
        try {
            Process p = pb.start();
            // Output is small (a version line, a check report); reading it before waiting avoids a full pipe.
            byte[] out = readBounded(p);
            if (!p.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return new Output(-1, "", "did not finish within " + timeoutMillis + " ms");
            }
            return new Output(p.exitValue(), new String(out, StandardCharsets.UTF_8), "");
        } catch (IOException e) {
            return new Output(-1, "", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Output(-1, "", "interrupted");
        }
    }

    private byte[] readBounded(Process p) throws IOException {
        java.util.concurrent.CompletableFuture<byte[]> f = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return p.getInputStream().readNBytes(1 << 20);
            } catch (IOException e) {
                return new byte[0];
            }
        });
        try {
            return f.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            p.destroyForcibly();
            return new byte[0];
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new byte[0];
        }
    }
}
