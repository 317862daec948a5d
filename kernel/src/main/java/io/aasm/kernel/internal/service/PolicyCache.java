package io.aasm.kernel.internal.service;

import io.aasm.ports.policy.PolicyLoad;
import io.aasm.ports.policy.PolicySource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Remembers loaded policies by file identity, so a resident kernel answering one launch per tool
 * call does not re-read and re-validate an unchanged file every time. A file counts as unchanged
 * only while the policy source, its real path, inode, size and modification and change times
 * (nanosecond precision where the filesystem keeps it) are all the same; anything else reloads.
 */
final class PolicyCache {

    private static final int CAPACITY = 64;

    private record Key(PolicySource source, Path realPath, Object fileKey, long size, Object modified,
                       Object changed) {
    }

    private final Map<Key, PolicyLoad> entries = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, PolicyLoad> eldest) {
            return size() > CAPACITY;
        }
    };

    PolicyLoad load(PolicySource source, Path path, Supplier<PolicyLoad> loader) {
        Optional<Key> key = keyOf(source, path);
        if (key.isEmpty()) {
            return loader.get();
        }
        synchronized (entries) {
            PolicyLoad cached = entries.get(key.get());
            if (cached != null) {
                return cached;
            }
        }
        PolicyLoad loaded = loader.get();
        // Only keep the result if the file did not change while it was being read.
        if (keyOf(source, path).equals(key)) {
            synchronized (entries) {
                entries.put(key.get(), loaded);
            }
        }
        return loaded;
    }

    private static Optional<Key> keyOf(PolicySource source, Path path) {
        try {
            Path real = path.toRealPath();
            BasicFileAttributes a = Files.readAttributes(real, BasicFileAttributes.class);
            if (!a.isRegularFile() || a.fileKey() == null) {
                return Optional.empty();
            }
            Object ctime = Files.getAttribute(real, "unix:ctime", LinkOption.NOFOLLOW_LINKS);
            return Optional.of(new Key(source, real, a.fileKey(), a.size(), a.lastModifiedTime(), ctime));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
            return Optional.empty(); // the loader reports the file's problem itself
        }
    }
}
