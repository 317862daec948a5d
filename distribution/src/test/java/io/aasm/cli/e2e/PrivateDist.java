package io.aasm.cli.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * A copy of the built distribution whose {@code conf/} a test may change, next to the build (never
 * under /tmp, which the default policy lets a program write), with a scratch folder beside it.
 */
final class PrivateDist {
    final Path home;
    final Path scratch;

    private PrivateDist(Path home, Path scratch) {
        this.home = home;
        this.scratch = scratch;
    }

    static PrivateDist copy(String prefix) throws IOException {
        Path root = Aasm.outsideTmp(prefix);
        Path home = root.resolve(Aasm.DIST.getFileName());
        try (var files = Files.walk(Aasm.DIST)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path target = home.resolve(Aasm.DIST.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return new PrivateDist(home, Files.createDirectories(root.resolve("scratch")));
    }

    Path conf(String name) {
        return home.resolve("conf").resolve(name);
    }

    /** A policy that reads the system, writes {@code writes}; everything else as the backend leaves it. */
    Path policy(String name, List<Path> writes) throws IOException {
        StringBuilder w = new StringBuilder();
        for (Path p : writes) {
            w.append(w.length() == 0 ? "" : ", ").append(p);
        }
        Path file = scratch.getParent().resolve(name + ".yaml");
        Files.writeString(file, "apiVersion: aasm/v1\nkind: Policy\nfilesystem:\n"
                + "  read: {allow: [/usr, /bin, /lib, /lib64, /etc]}\n"
                + "  write: {allow: [" + w + "]}\n");
        return file;
    }

    Aasm.Result run(Path cwd, Map<String, String> env, String... args) throws Exception {
        return Aasm.run(home, cwd, env, args);
    }

    /** The sandlock tests need the real executable (AA_SANDLOCK_BIN); without it this host cannot host them. */
    void assumeSandlock() throws Exception {
        Map<String, String> env = new HashMap<>(Map.of("AASM_CLIENT", "off"));
        Aasm.Result b = run(scratch, env, "backends");
        String block = b.out().contains("backend: sandlock") ? b.out().substring(b.out().indexOf("backend: sandlock")) : "";
        Assumptions.assumeTrue(block.contains("availability: available"), "environment cannot host this check: no usable"
                + " sandlock executable (set AA_SANDLOCK_BIN): " + b);
    }
}
