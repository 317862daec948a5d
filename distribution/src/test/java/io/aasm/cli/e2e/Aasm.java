package io.aasm.cli.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the built {@code bin/aasm} the way a user would, from a shell-like environment. */
final class Aasm {
    static final Path DIST = Path.of(System.getProperty("aasm.dist.dir", "target/aasm-0.1.0-SNAPSHOT"));
    /**
     * aasm's cache for every run here. Not under /tmp: the default policy grants writes there, and the
     * cache is one of aasm's protected paths (a launch whose write grants reach it is not aasm's to make).
     */
    static final Path CACHE = outsideTmp("e2e-cache");
    /** Added to every run's environment; the resident-path variant points XDG_RUNTIME_DIR at its kernel. */
    static final Map<String, String> BASE_ENV = new java.util.concurrent.ConcurrentHashMap<>();

    record Result(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit=" + exit + "\n--- stdout ---\n" + out + "\n--- stderr ---\n" + err;
        }
    }

    private Aasm() {
    }

    static Result run(Path home, Path cwd, Map<String, String> extraEnv, String... args) throws Exception {
        Process p = start(home, cwd, extraEnv, args);
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("bin/aasm did not finish: " + List.of(args));
        }
        return result(p, cwd);
    }

    static Result run(String... args) throws Exception {
        return run(DIST, tempDir("aasm-e2e-cwd"), Map.of(), args);
    }

    static Process start(Path home, Path cwd, Map<String, String> extraEnv, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(home.resolve("bin/aasm").toString());
        cmd.addAll(List.of(args));
        return startCommand(cmd, cwd, extraEnv);
    }

    /** Any command (a client, a wrapper around bin/aasm) with the environment every run here gets. */
    static Result command(Path cwd, Map<String, String> extraEnv, List<String> cmd) throws Exception {
        Process p = startCommand(cmd, cwd, extraEnv);
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("did not finish: " + cmd);
        }
        return result(p, cwd);
    }

    static Process startCommand(List<String> cmd, Path cwd, Map<String, String> extraEnv) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile())
                .redirectOutput(cwd.resolve(".aasm-stdout").toFile())
                .redirectError(cwd.resolve(".aasm-stderr").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().put("XDG_CACHE_HOME", CACHE.toString());
        pb.environment().put("AASM_CDS", "off");
        pb.environment().putAll(BASE_ENV);
        pb.environment().putAll(extraEnv);
        return pb.start();
    }

    static Result result(Process p, Path cwd) throws IOException {
        return new Result(p.exitValue(), Files.readString(cwd.resolve(".aasm-stdout")),
                Files.readString(cwd.resolve(".aasm-stderr")));
    }

    /** A fresh directory next to the built distribution (in the build directory, never under /tmp). */
    static Path outsideTmp(String prefix) {
        try {
            return Files.createTempDirectory(DIST.toAbsolutePath().getParent(), prefix);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Path tempDir(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A private copy of the distribution, so a test can change bundle/ and deploy/ without touching the build. */
    static Path copyOfDistribution(List<String> withoutBundles) throws IOException {
        Path copy = tempDir("aasm-e2e-dist").resolve(DIST.getFileName());
        try (var files = Files.walk(DIST)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path target = copy.resolve(DIST.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else if (!withoutBundles.contains(f.getFileName().toString())) {
                    Files.copy(f, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return copy;
    }
}
