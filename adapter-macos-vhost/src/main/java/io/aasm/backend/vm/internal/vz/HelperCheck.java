package io.aasm.backend.vm.internal.vz;

import io.aasm.backend.vm.internal.image.GuestImage;
import io.aasm.backend.vm.internal.qemu.RunDirs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Whether the helper may run a guest here, in the order an operator would fix things: the host (macOS), the
 * helper (configured, pinned, checked by {@link HelperBinary}), the guest image, then the helper's own
 * {@code check} (its entitlement, the framework's support on this Mac), asked once: it starts no VM. A run that
 * later ends with "entitlement missing" makes the answer that from then on.
 */
final class HelperCheck {
    private static final long CHECK_MILLIS = 10_000;

    private final VzSettings settings;
    private final HelperProcesses spawner;
    private volatile Optional<String> checked;
    private volatile String refused;

    HelperCheck(VzSettings settings, HelperProcesses spawner) {
        this.settings = settings;
        this.spawner = spawner;
    }

    /** The reason no guest can run here, or empty; the helper's check runs once per backend. */
    Optional<String> problem() {
        Optional<String> why = problemNow();
        if (why.isPresent()) {
            return why;
        }
        Optional<String> c = checked;
        if (c == null) {
            synchronized (this) {
                if (checked == null) {
                    checked = runCheck();
                }
                c = checked;
            }
        }
        return c;
    }

    /** The reasons that need no helper run: host, binary and pin (hashed again every time), image, refusal. */
    Optional<String> problemNow() {
        if (settings.macosOnly() && !VzSettings.onMacos()) {
            return Optional.of("aasm-macos-vm runs guests with Apple's Virtualization.framework, which exists only on"
                    + " macOS; this host runs " + System.getProperty("os.name") + " (use aasm-qemu-vm here) [not_macos]");
        }
        Optional<String> bin = HelperBinary.problem(settings.helper(), settings.helperSha256(), settings.vm().uid());
        if (bin.isPresent()) {
            return bin;
        }
        Optional<GuestImage> image = settings.image().flatMap(GuestImage::load);
        if (image.isEmpty()) {
            return Optional.of("no guest image in " + settings.image().map(Object::toString).orElse("(image.dir not set)")
                    + ": on an Apple-silicon Mac give image.dir the arm64 image a Linux build assembles "
                    + "(adapter-macos-vhost/target/guest-image-arm64), see docs/vm.md");
        }
        String host = hostArch();
        if (!image.get().arch().equals(host)) {
            return Optional.of("the guest image in " + image.get().dir() + " is for " + image.get().arch() + " and "
                    + "Virtualization.framework runs guests of the host's own architecture (" + host + "); on an "
                    + "Apple-silicon Mac use the arm64 image (target/guest-image-arm64), see docs/vm.md");
        }
        return Optional.ofNullable(refused);
    }

    /** The kernel's name for this machine's architecture, as image.json records it. */
    static String hostArch() {
        String a = System.getProperty("os.arch", "");
        return a.equals("aarch64") || a.equals("arm64") ? "aarch64" : a.equals("amd64") ? "x86_64" : a;
    }

    void refuse(String why) {
        refused = why;
    }

    private Optional<String> runCheck() {
        RunDirs.Run run = null;
        try {
            run = new RunDirs(settings.vm().stateDir()).create();
            Process p = spawner.start(List.of(settings.helper().orElseThrow().toString(), "check"),
                    run.dir().resolve("helper.log"));
            p.getOutputStream().close();
            if (!p.waitFor(CHECK_MILLIS, TimeUnit.MILLISECONDS)) { // its answer is one line: the pipe holds it
                p.destroyForcibly();
                return Optional.of("the helper's check did not end within " + CHECK_MILLIS + " ms");
            }
            byte[] out = p.getInputStream().readNBytes(4096);
            String first = new String(out, StandardCharsets.UTF_8).lines().findFirst().orElse("");
            if (p.exitValue() == 0 && first.equals(HelperContract.CHECK_ANSWER)) {
                return Optional.empty();
            }
            String log = String.join(" ", java.nio.file.Files.readAllLines(run.dir().resolve("helper.log"))).strip();
            return Optional.of(p.exitValue() == 0 ? "the helper does not speak contract " + HelperContract.VERSION
                    + " (its check answered \"" + first + "\")" : HelperContract.meaning(p.exitValue())
                    + (log.isEmpty() ? "" : " (helper: " + log + ")"));
        } catch (IOException e) {
            return Optional.of("the helper's check could not run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted during the helper's check");
        } finally {
            if (run != null) {
                run.close();
            }
        }
    }
}
