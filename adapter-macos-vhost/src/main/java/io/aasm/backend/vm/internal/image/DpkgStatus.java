package io.aasm.backend.vm.internal.image;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** The version of an installed Debian package, read from dpkg's status file (for the image's provenance). */
final class DpkgStatus {
    private DpkgStatus() {
    }

    static Optional<String> version(Path status, String pkg) {
        return field(status, pkg, "Version");
    }

    /** A field of the package's stanza (arm64.sh's unpacked packages record their .deb's "SHA256" this way). */
    static Optional<String> field(Path status, String pkg, String name) {
        try {
            String text = Files.readString(status);
            for (String stanza : text.split("\n\n")) {
                if (stanza.startsWith("Package: " + pkg + "\n") || stanza.contains("\nPackage: " + pkg + "\n")) {
                    return stanza.lines().filter(l -> l.startsWith(name + ": "))
                            .map(l -> l.substring(name.length() + 2).trim()).findFirst();
                }
            }
        } catch (IOException | RuntimeException e) {
            // unknown version: the image's checksums still identify it
        }
        return Optional.empty();
    }
}
