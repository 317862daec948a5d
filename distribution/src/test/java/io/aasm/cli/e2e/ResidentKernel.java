package io.aasm.cli.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A resident kernel ({@code aasm daemon start}) in a private runtime directory, for one test class. */
final class ResidentKernel implements AutoCloseable {
    final Path runtimeDir;
    final Path socket;

    private ResidentKernel(Path runtimeDir) {
        this.runtimeDir = runtimeDir;
        this.socket = runtimeDir.resolve("aasm.sock");
    }

    /**
     * A private runtime directory (0700) with no kernel yet: next to the built distribution, not under
     * /tmp (which the default policy grants for writing, and the runtime directory is one of aasm's
     * protected paths), unless the socket's path would be too long for a Unix socket there.
     */
    static ResidentKernel prepare() throws IOException {
        var mode = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
        Path dir = Files.createTempDirectory(Aasm.DIST.toAbsolutePath().getParent(), "rt", mode);
        if (dir.resolve("aasm.sock").toString().length() > 100) {
            Files.delete(dir);
            dir = Files.createTempDirectory("aasm-rt", mode);
        }
        return new ResidentKernel(dir);
    }

    static ResidentKernel start(Map<String, String> daemonEnv) throws Exception {
        ResidentKernel k = prepare();
        k.startHere(daemonEnv);
        return k;
    }

    void startHere(Map<String, String> daemonEnv) throws Exception {
        Map<String, String> env = new HashMap<>(daemonEnv);
        env.putAll(env());
        Aasm.Result r = Aasm.run(Aasm.DIST, runtimeDir, env, "daemon", "start");
        if (r.exit() != 0) {
            throw new AssertionError("aasm daemon start failed: " + r + "\n--- log ---\n" + log());
        }
    }

    /** The environment a client needs to find this kernel. */
    Map<String, String> env() {
        return Map.of("XDG_RUNTIME_DIR", runtimeDir.toString());
    }

    Aasm.Result status() throws Exception {
        return Aasm.run(Aasm.DIST, runtimeDir, env(), "daemon", "status");
    }

    long pid() throws Exception {
        Aasm.Result s = status();
        Matcher m = Pattern.compile("running pid=(\\d+) ").matcher(s.out());
        if (!m.find()) {
            throw new AssertionError("no running kernel: " + s);
        }
        return Long.parseLong(m.group(1));
    }

    String log() throws IOException {
        Path log = runtimeDir.resolve("aasm-daemon.log");
        return Files.exists(log) ? Files.readString(log) : "(no log)";
    }

    @Override
    public void close() throws Exception {
        Aasm.run(Aasm.DIST, runtimeDir, env(), "daemon", "stop");
    }
}
