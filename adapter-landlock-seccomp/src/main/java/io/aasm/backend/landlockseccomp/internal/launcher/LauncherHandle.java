package io.aasm.backend.landlockseccomp.internal.launcher;

/**
 * The launcher process of one launch, however it was made: executed by this JVM ({@link Spawned}) or forked by
 * the resident zygote ({@link ForkedLauncher}). Signals reach only that process while it is unreaped.
 */
public interface LauncherHandle {
    long pid();

    boolean isAlive();

    /** Blocks until the launcher has ended; its exit status (128 + n when killed by signal n, -1 when unknown). */
    int waitFor() throws InterruptedException;

    /** Sends {@code signal} to the launcher; false when it had already ended. */
    boolean signal(int signal);

    /** Whether a zygote forked this launcher (rather than this JVM executing a fresh one). */
    boolean forked();

    int SIGKILL = 9;
    int SIGTERM = 15;

    /** A launcher this JVM executed through {@link ProcessBuilder}. */
    record Spawned(Process process) implements LauncherHandle {
        @Override
        public long pid() {
            return process.pid();
        }

        @Override
        public boolean isAlive() {
            return process.isAlive();
        }

        @Override
        public int waitFor() throws InterruptedException {
            return process.waitFor();
        }

        @Override
        public boolean signal(int signal) {
            if (!process.isAlive()) {
                return false;
            }
            if (signal == SIGKILL) {
                process.destroyForcibly();
            } else if (signal == SIGTERM) {
                process.destroy();
            } else {
                return io.aasm.backend.landlockseccomp.internal.host.LibC.INSTANCE.kill((int) process.pid(), signal) == 0;
            }
            return true;
        }

        @Override
        public boolean forked() {
            return false;
        }
    }
}
