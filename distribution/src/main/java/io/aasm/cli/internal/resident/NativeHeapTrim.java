package io.aasm.cli.internal.resident;

import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * Gives the C library's free heap back to the system once, after the idle collector's full collections (issue 18):
 * memory the kernel's native code freed during and after a burst (JNA's and the JDK's native buffers, released by
 * their cleaners once a collection finds them unreachable, and what exited connection threads freed) goes back to
 * glibc's arenas, not to the system, and stays in the resident set until something trims them.
 * The JVM trims periodically where it has {@code -XX:TrimNativeHeapInterval} as a product switch (17.0.11 and later,
 * {@code DaemonStart}); on an older JVM nothing else does, and on a newer one this only does sooner what the next
 * periodic trim would. {@code malloc_trim} is glibc's: where the C library has no such function (musl), the first
 * call finds it missing and every later call is skipped.
 */
final class NativeHeapTrim {
    /** glibc's {@code malloc_trim(size_t pad)}: 1 when memory was given back, 0 when there was none to give. */
    interface GlibcMalloc extends Library {
        int malloc_trim(long pad);
    }

    private static volatile boolean missing;

    private NativeHeapTrim() {
    }

    /** Trims all of glibc's arenas, keeping no padding; true when it gave memory back, false otherwise. */
    static boolean trim() {
        if (missing) {
            return false;
        }
        try {
            return Holder.MALLOC.malloc_trim(0) == 1;
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            missing = true; // not glibc: the periodic trim, if any, is the JVM's
            return false;
        }
    }

    /** Loaded on the first trim, never by a face that does not run the idle collector. */
    private static final class Holder {
        static final GlibcMalloc MALLOC = Native.load("c", GlibcMalloc.class);
    }
}
