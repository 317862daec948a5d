package io.aasm.backend.vm.internal.image;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;

/**
 * SHA-256 of large system files (the QEMU binary, the kernel package's image), remembered in the user's private
 * state folder under the file's identity: its real path, device, inode, size, modification and change times. Any
 * replacement or rewrite of the file changes its change time (which no user program can set back), so the digest
 * is computed again; an unchanged file is not read again on every listing (18 MB took about a second there).
 */
public final class FileDigests {
    private final Optional<Path> dir;

    /** {@code dir}: where the digests are kept (made 0700); empty: always hash. */
    public FileDigests(Optional<Path> dir) {
        this.dir = dir;
    }

    public String sha256(Path file) throws IOException {
        if (dir.isEmpty()) {
            return Digests.sha256(file);
        }
        Path real = file.toRealPath();
        String id = identity(real);
        Path memo = dir.get().resolve(Digests.sha256(real.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 24));
        try {
            String[] kept = Files.readString(memo).split("\n");
            if (kept.length == 2 && kept[0].equals(id) && kept[1].matches("[0-9a-f]{64}")) {
                return kept[1];
            }
        } catch (IOException | RuntimeException e) {
            // absent or unreadable: hash again
        }
        String sha = Digests.sha256(real);
        if (!identity(real).equals(id)) {
            return sha; // changed while it was read: use this digest, remember nothing
        }
        Files.createDirectories(dir.get(), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Path tmp = Files.createTempFile(dir.get(), ".digest-", "");
        Files.writeString(tmp, id + "\n" + sha);
        Files.move(tmp, memo, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return sha;
    }

    private static String identity(Path real) throws IOException {
        Map<String, Object> a = Files.readAttributes(real, "unix:dev,ino,size,lastModifiedTime,ctime");
        return real + "|" + a.get("dev") + "|" + a.get("ino") + "|" + a.get("size") + "|" + a.get("lastModifiedTime")
                + "|" + a.get("ctime");
    }
}
