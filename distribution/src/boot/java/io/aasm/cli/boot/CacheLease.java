package io.aasm.cli.boot;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Exclusive use of a Felix bundle cache. Felix 7 does not stop two processes from sharing one cache
 * (it ignores a failed tryLock), so the boot jar guards the shared cache with its own lock and gives a
 * concurrent run a private, throw-away cache instead of waiting: in this JVM's {@link PrivateTemp}
 * under the cache directory, never in {@code /tmp} (the cache holds native libraries the JVM loads).
 */
final class CacheLease implements AutoCloseable {
    private final Path storage;
    private final FileChannel channel;
    private final FileLock lock;
    private final boolean temporary;

    private CacheLease(Path storage, FileChannel channel, FileLock lock, boolean temporary) {
        this.storage = storage;
        this.channel = channel;
        this.lock = lock;
        this.temporary = temporary;
    }

    static CacheLease acquire(Path cacheRoot, String name, PrivateTemp temp) throws IOException {
        try {
            FileChannel ch = FileChannel.open(cacheRoot.resolve(name + ".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock l = ch.tryLock();
            if (l != null) {
                return new CacheLease(cacheRoot.resolve(name), ch, l, false);
            }
            ch.close();
        } catch (IOException | SecurityException e) {
            // an unusable lock file must not stop a launch; fall through to a private cache
        }
        return new CacheLease(temp.sub("felix"), null, null, true);
    }

    Path storage() {
        return storage;
    }

    boolean temporary() {
        return temporary;
    }

    @Override
    public void close() {
        try {
            if (lock != null) {
                lock.release();
            }
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            // the lock dies with the process anyway
        }
        if (temporary) {
            PrivateTemp.deleteTree(storage);
        }
    }
}
