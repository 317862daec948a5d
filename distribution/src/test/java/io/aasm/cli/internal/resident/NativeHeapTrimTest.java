package io.aasm.cli.internal.resident;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The idle trim's effect on this machine's C library: freed malloc memory that glibc keeps (free chunks below a live
 * one, which {@code free} itself never returns) leaves the resident set only when {@link NativeHeapTrim#trim} runs.
 */
class NativeHeapTrimTest {
    private static final int BLOCK = 16 << 10; // below glibc's mmap threshold: the blocks come from an arena
    private static final int BLOCKS = 4096; // 64 MiB

    @Test
    void freedArenaMemoryLeavesTheResidentSetOnlyWhenTrimmed() throws IOException {
        long[] blocks = new long[BLOCKS];
        for (int i = 0; i < BLOCKS; i++) {
            blocks[i] = Native.malloc(BLOCK);
            new Pointer(blocks[i]).setMemory(0, BLOCK, (byte) 1); // touched: resident
        }
        long pin = Native.malloc(BLOCK); // above them: their free space is not the arena's top, so free() keeps it
        try {
            long loaded = rssAnonKib();
            for (long b : blocks) {
                Native.free(b);
            }
            long freed = rssAnonKib();
            // control: freeing alone gives (almost) nothing back
            assertTrue(loaded - freed < 16 << 10, "free() alone gave back " + (loaded - freed) + " KiB");
            NativeHeapTrim.trim();
            long trimmed = rssAnonKib();
            assertTrue(freed - trimmed > 48 << 10, "the trim gave back only " + (freed - trimmed) + " KiB");
        } finally {
            Native.free(pin);
        }
    }

    private static long rssAnonKib() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("RssAnon:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException("no RssAnon in /proc/self/status");
    }
}
