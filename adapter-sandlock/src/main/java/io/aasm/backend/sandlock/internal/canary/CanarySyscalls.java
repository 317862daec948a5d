package io.aasm.backend.sandlock.internal.canary;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Calls that change nothing when every argument is -1 (a bad descriptor, an unmapped pointer, impossible
 * flags) and need no capability, so only a filter answers them EPERM: the SYSCALL canary calls one that
 * the policy denies. Numbers per architecture, in order of preference.
 */
final class CanarySyscalls {
    private static final Map<String, int[]> NUMBERS = new LinkedHashMap<>();

    static {
        // name -> {x86_64, aarch64}; -1 where the architecture lacks the call
        NUMBERS.put("mkdir", new int[] {83, -1});
        NUMBERS.put("mkdirat", new int[] {258, 34});
        NUMBERS.put("rmdir", new int[] {84, -1});
        NUMBERS.put("unlink", new int[] {87, -1});
        NUMBERS.put("unlinkat", new int[] {263, 35});
        NUMBERS.put("chdir", new int[] {80, 49});
        NUMBERS.put("fchdir", new int[] {81, 50});
        NUMBERS.put("rename", new int[] {82, -1});
        NUMBERS.put("renameat", new int[] {264, 38});
        NUMBERS.put("renameat2", new int[] {316, 276});
        NUMBERS.put("link", new int[] {86, -1});
        NUMBERS.put("linkat", new int[] {265, 37});
        NUMBERS.put("symlink", new int[] {88, -1});
        NUMBERS.put("symlinkat", new int[] {266, 36});
        NUMBERS.put("chmod", new int[] {90, -1});
        NUMBERS.put("fchmod", new int[] {91, 52});
        NUMBERS.put("fchmodat", new int[] {268, 53});
        NUMBERS.put("chown", new int[] {92, -1});
        NUMBERS.put("fchown", new int[] {93, 55});
        NUMBERS.put("lchown", new int[] {94, -1});
        NUMBERS.put("fchownat", new int[] {260, 54});
        NUMBERS.put("truncate", new int[] {76, 45});
        NUMBERS.put("ftruncate", new int[] {77, 46});
        NUMBERS.put("getdents64", new int[] {217, 61});
        NUMBERS.put("connect", new int[] {42, 203});
        NUMBERS.put("bind", new int[] {49, 200});
        NUMBERS.put("listen", new int[] {50, 201});
        NUMBERS.put("flock", new int[] {73, 32});
        NUMBERS.put("fsync", new int[] {74, 82});
        NUMBERS.put("fdatasync", new int[] {75, 83});
        NUMBERS.put("mknod", new int[] {133, -1});
        NUMBERS.put("mknodat", new int[] {259, 33});
        NUMBERS.put("statfs", new int[] {137, 43});
        NUMBERS.put("fstatfs", new int[] {138, 44});
        NUMBERS.put("getcwd", new int[] {79, 17});
        NUMBERS.put("uname", new int[] {63, 160});
    }

    private CanarySyscalls() {
    }

    /** The number of {@code name} on {@code arch} ({@code x86_64} or {@code aarch64}), if it is a harmless one. */
    static Optional<Integer> number(String name, String arch) {
        int[] n = NUMBERS.get(name);
        int column = arch.equals("x86_64") ? 0 : arch.equals("aarch64") ? 1 : -1;
        return n == null || column < 0 || n[column] < 0 ? Optional.empty() : Optional.of(n[column]);
    }

    /** The harmless names, in order of preference. */
    static Iterable<String> names() {
        return NUMBERS.keySet();
    }
}
