package io.aasm.backend.vm.internal.qemu;

import io.aasm.backend.vm.internal.image.FileDigests;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The system's {@code qemu-system-<arch>} (Debian package qemu-system-x86): never bundled, found on PATH or
 * where configured. Its version pins the machine type a template is saved with; path, size and mtime
 * identify it in template keys, so an upgraded QEMU never restores a template another one saved; its SHA-256
 * keys the probe cache (remembered by {@link FileDigests}: about 18 MB). {@code firmware}: QEMU's own qboot
 * ROM when the installation has it (Debian's qemu-system-data does), booted instead of SeaBIOS because it
 * reaches the PVH kernel sooner under TCG (docs/vm.md, "Cold boot"); it is part of the identity, so a template
 * is never restored under other firmware than it booted with.
 */
public record QemuBinary(Path path, String version, int major, int minor, String identity, String sha256,
                         Optional<Path> firmware) {
    private static final Pattern VERSION = Pattern.compile("QEMU emulator version (\\d+)\\.(\\d+)(\\.\\d+)?");

    /** The executable for this host's architecture, or why there is none. */
    public static Optional<QemuBinary> find(Optional<Path> configured, String pathEnv, FileDigests digests,
                                            StringBuilder why) {
        String arch = System.getProperty("os.arch");
        if (!arch.equals("amd64") && !arch.equals("x86_64")) {
            why.append("the QEMU driver runs x86_64 guests on x86_64 hosts; this host is ").append(arch);
            return Optional.empty();
        }
        String name = "qemu-system-x86_64";
        Optional<Path> exe = configured.isPresent() ? configured : onPath(name, pathEnv);
        if (exe.isEmpty() || !Files.isExecutable(exe.get())) {
            why.append(configured.map(p -> p + " is not an executable file").orElse(name + " is not on PATH"))
                    .append(" (install it: apt-get install qemu-system-x86)");
            return Optional.empty();
        }
        try {
            Process p = new ProcessBuilder(exe.get().toString(), "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            Matcher m = VERSION.matcher(out);
            if (!m.find()) {
                why.append(exe.get()).append(" --version did not name a QEMU version: ").append(out.strip());
                return Optional.empty();
            }
            int major = Integer.parseInt(m.group(1));
            int minor = Integer.parseInt(m.group(2));
            if (major < 7) {
                why.append("QEMU ").append(m.group()).append(" is too old: the driver needs 7.0 or later");
                return Optional.empty();
            }
            Path real = exe.get().toRealPath();
            Optional<Path> firmware = qboot(real);
            String id = real + ":" + Files.size(real) + ":" + Files.getLastModifiedTime(real).toMillis() + ":"
                    + m.group().substring("QEMU emulator version ".length())
                    + firmware.map(f -> ":bios=" + f + ":" + size(f)).orElse("");
            return Optional.of(new QemuBinary(real, out.lines().findFirst().orElse("").strip(), major, minor, id,
                    digests.sha256(real), firmware));
        } catch (IOException e) {
            why.append("cannot run ").append(exe.get()).append(": ").append(e.getMessage());
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            why.append("interrupted while asking QEMU its version");
            return Optional.empty();
        }
    }

    /** {@code <prefix>/share/qemu/qboot.rom} beside {@code <prefix>/bin/qemu-system-x86_64}, if it is a file. */
    static Optional<Path> qboot(Path exe) {
        Path bin = exe.getParent();
        if (bin == null || bin.getParent() == null) {
            return Optional.empty();
        }
        Path rom = bin.getParent().resolve("share/qemu/qboot.rom");
        return Files.isRegularFile(rom) ? Optional.of(rom) : Optional.empty();
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return -1;
        }
    }

    private static Optional<Path> onPath(String name, String pathEnv) {
        for (String dir : (pathEnv == null ? "/usr/bin:/bin" : pathEnv).split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The machine type of this QEMU's own version, pinned so a template and its restores always agree. */
    public String machine() {
        return "pc-i440fx-" + major + "." + minor;
    }
}
