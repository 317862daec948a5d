package io.aasm.cli.internal.resident;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What {@code /proc/<pid>} says about one process, read under a configurable root so tests can use a
 * fake tree. Every reader returns empty when the file cannot be read: the caller decides what an
 * unreadable fact means (for a peer, it means "confined").
 */
final class ProcFacts {
    /** The namespaces a boundary can change; {@code time} is absent on kernels before 5.6 (skipped then). */
    static final List<String> NAMESPACES = List.of("pid", "mnt", "net", "ipc", "user", "uts", "cgroup", "time");

    private final Path dir;

    ProcFacts(Path procRoot, long pid) {
        this.dir = procRoot.resolve(Long.toString(pid));
    }

    /** A numeric field of {@code status} ({@code NoNewPrivs}, {@code Seccomp}, {@code Seccomp_filters}). */
    Optional<Long> statusField(String name) {
        return statusFields(List.of(name)).flatMap(f -> Optional.ofNullable(f.get(name)));
    }

    /**
     * The numeric fields {@code names} of {@code status}, from one read of the file (the kernel generates it
     * afresh on every read, and a caller check needs three of its fields); a field the file lacks is absent
     * from the map, an unreadable file is empty.
     */
    Optional<Map<String, Long>> statusFields(List<String> names) {
        try {
            Map<String, Long> out = new LinkedHashMap<>();
            for (String line : ProcText.lines(ProcText.read(dir.resolve("status")))) {
                for (String name : names) {
                    if (line.startsWith(name) && line.length() > name.length() && line.charAt(name.length()) == ':') {
                        out.put(name, Long.parseLong(line.substring(name.length() + 1).strip()));
                    }
                }
            }
            return Optional.of(out);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The identity of each namespace ({@code net:[4026531833]}); a namespace that cannot be read is absent. */
    Map<String, String> namespaces() {
        Map<String, String> ns = new LinkedHashMap<>();
        for (String n : NAMESPACES) {
            try {
                ns.put(n, Files.readSymbolicLink(dir.resolve("ns").resolve(n)).toString());
            } catch (IOException | RuntimeException e) {
                // absent: a kernel without this namespace type, or a process we may not inspect
            }
        }
        return ns;
    }

    /** {@code comm} and parent pid from {@code stat}; comm may hold spaces and parentheses, so split at the last ')'. */
    Optional<Stat> stat() {
        try {
            String s = ProcText.read(dir.resolve("stat"));
            int open = s.indexOf('(');
            int close = s.lastIndexOf(')');
            if (open < 0 || close < open) {
                return Optional.empty();
            }
            String[] rest = s.substring(close + 2).split(" ");
            return Optional.of(new Stat(s.substring(open + 1, close), Long.parseLong(rest[1])));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    record Stat(String comm, long ppid) {
    }

    /** The path components of every cgroup line that name an aasm launch group ({@code aasm-…}). */
    Optional<Set<String>> aasmCgroups() {
        try {
            Set<String> groups = new LinkedHashSet<>();
            for (String line : ProcText.lines(ProcText.read(dir.resolve("cgroup")))) {
                int colon = line.indexOf(':', line.indexOf(':') + 1);
                for (String part : line.substring(colon + 1).split("/")) {
                    if (part.startsWith("aasm-")) {
                        groups.add(part);
                    }
                }
            }
            return Optional.of(groups);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
