package io.aasm.kernel.internal.audit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The SHA-256 of policy files, remembered by file identity (real path, inode, size, modification and change
 * times) so a resident kernel does not re-read an unchanged policy for every launch's audit record.
 */
public final class PolicyDigests {
    private static final long MAX_BYTES = 1L << 20;

    private record Key(Path real, Object fileKey, long size, Object modified, Object changed) {
    }

    private final Map<Key, String> known = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, String> eldest) {
            return size() > 64;
        }
    };

    /** Empty when the path is not a readable regular file (no policy, or it vanished). */
    public Optional<String> of(String policyFile) {
        try {
            Path real = Path.of(policyFile).toRealPath();
            BasicFileAttributes a = Files.readAttributes(real, BasicFileAttributes.class);
            if (!a.isRegularFile() || a.size() > MAX_BYTES) {
                return Optional.empty();
            }
            Key key = new Key(real, a.fileKey(), a.size(), a.lastModifiedTime(),
                    Files.getAttribute(real, "unix:ctime", LinkOption.NOFOLLOW_LINKS));
            synchronized (known) {
                String d = known.get(key);
                if (d != null) {
                    return Optional.of(d);
                }
            }
            String digest = sha256(real);
            synchronized (known) {
                known.put(key, digest);
            }
            return Optional.of(digest);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static String sha256(Path file) throws IOException {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is mandatory in every JVM", e);
        }
    }
}
