package io.aasm.backend.vm.internal.qemu;

import io.aasm.backend.vm.internal.image.Digests;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The guest agent this bundle carries ({@code native/linux-<arch>/aasm-guest-agent}, built by the module from
 * src/main/c/guest), checked against the checksum the build recorded beside it, then written once to the
 * state folder for the image builder.
 */
final class BundledAgent {
    private BundledAgent() {
    }

    static Path extract(Path stateDir) throws IOException {
        String dir = "/native/linux-x86_64/";
        byte[] bin;
        String recorded;
        try (InputStream b = BundledAgent.class.getResourceAsStream(dir + "aasm-guest-agent");
             InputStream s = BundledAgent.class.getResourceAsStream(dir + "aasm-guest-agent.sha256")) {
            if (b == null || s == null) {
                throw new IOException("the bundle carries no guest agent for linux-x86_64");
            }
            bin = b.readAllBytes();
            recorded = new String(s.readAllBytes(), StandardCharsets.US_ASCII).split("\\s+")[0];
        }
        String sha = Digests.sha256(bin);
        if (!sha.equals(recorded)) {
            throw new IOException("the bundled guest agent's sha256 " + sha + " is not the one recorded at build ("
                    + recorded + ")");
        }
        Path out = stateDir.resolve("agent").resolve(sha).resolve("aasm-guest-agent");
        if (!Files.isRegularFile(out) || !Digests.sha256(out).equals(sha)) {
            Files.createDirectories(out.getParent());
            Path tmp = Files.createTempFile(out.getParent(), ".agent-", "");
            Files.write(tmp, bin);
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        return out;
    }
}
