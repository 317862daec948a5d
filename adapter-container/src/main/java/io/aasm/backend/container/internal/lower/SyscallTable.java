package io.aasm.backend.container.internal.lower;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Every syscall name (and number) of this architecture as the build's C library headers define them
 * ({@code native/linux-<arch>/syscalls.txt}, made by src/main/c/build.sh). The seccomp profile's allow
 * list is cut from it; a call newer than the table is refused by the runtime (runc answers ENOSYS for every
 * number above the profile's highest), which is what "fail closed for calls the filter does not know" needs.
 */
public record SyscallTable(String arch, Map<String, Integer> numbers) {
    public SyscallTable {
        numbers = Collections.unmodifiableMap(new TreeMap<>(numbers));
    }

    /** The table shipped in this bundle for {@code os.arch}, or empty when none was built for it. */
    public static Optional<SyscallTable> bundled() {
        Optional<String> arch = kernelArch(System.getProperty("os.arch"));
        if (arch.isEmpty()) {
            return Optional.empty();
        }
        try (InputStream in = SyscallTable.class.getResourceAsStream("/native/linux-" + arch.get() + "/syscalls.txt")) {
            if (in == null) {
                return Optional.empty();
            }
            return Optional.of(parse(arch.get(), new String(in.readAllBytes(), StandardCharsets.US_ASCII)));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static SyscallTable parse(String arch, String text) {
        Map<String, Integer> m = new TreeMap<>();
        for (String line : text.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 2 && f[0].matches("[a-z0-9_]+") && f[1].matches("\\d+")) {
                m.put(f[0], Integer.parseInt(f[1]));
            }
        }
        return new SyscallTable(arch, m);
    }

    public static Optional<String> kernelArch(String javaArch) {
        return switch (javaArch) {
            case "amd64", "x86_64" -> Optional.of("x86_64");
            case "aarch64", "arm64" -> Optional.of("aarch64");
            default -> Optional.empty();
        };
    }

    public boolean knows(String name) {
        return numbers.containsKey(name);
    }

    /** libseccomp's name for the architecture, as the engine's profile format spells it. */
    public String scmpArch() {
        return arch.equals("aarch64") ? "SCMP_ARCH_AARCH64" : "SCMP_ARCH_X86_64";
    }

    public int highest() {
        return numbers.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }
}
