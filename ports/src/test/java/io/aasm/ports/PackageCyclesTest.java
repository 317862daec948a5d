package io.aasm.ports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The exported packages form no cycle (issue 19): each is versioned on its own (bnd baselining), which
 * only means something when a change in one cannot force a change in a package it depends on. Read from
 * the sources: every reference to another ports package, imported or written out, is an edge.
 */
class PackageCyclesTest {
    private static final Path SOURCES = Path.of("src/main/java/io/aasm/ports");
    private static final Pattern REFERENCE = Pattern.compile("io\\.aasm\\.ports\\.(\\w+)\\.[A-Z]");

    @Test
    void theExportedPackagesFormNoCycle() throws IOException {
        Map<String, Set<String>> edges = edges();
        assertTrue(edges.size() >= 8, "read the packages: " + edges.keySet());
        List<String> cycles = new ArrayList<>();
        for (String from : edges.keySet()) {
            for (String to : edges.get(from)) {
                if (reaches(edges, to, from, new HashSet<>())) {
                    cycles.add(from + " -> " + to);
                }
            }
        }
        assertEquals(List.of(), cycles, "package edges that close a cycle; the graph: " + edges);
    }

    /** The check itself: a cycle planted in a copy of the graph is found (a test that cannot fail proves nothing). */
    @Test
    void aPlantedCycleIsFound() throws IOException {
        Map<String, Set<String>> edges = edges();
        edges.get("capability").add("report");
        assertTrue(reaches(edges, "report", "capability", new HashSet<>()) && edges.get("report").contains("capability"));
    }

    private static Map<String, Set<String>> edges() throws IOException {
        Map<String, Set<String>> edges = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String pkg = SOURCES.relativize(f.getParent()).toString().replace('/', '.');
                Set<String> to = edges.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher m = REFERENCE.matcher(Files.readString(f));
                while (m.find()) {
                    if (!m.group(1).equals(pkg)) {
                        to.add(m.group(1));
                    }
                }
            }
        }
        return edges;
    }

    private static boolean reaches(Map<String, Set<String>> edges, String from, String target, Set<String> seen) {
        for (String next : edges.getOrDefault(from, Set.of())) {
            if (next.equals(target) || (seen.add(next) && reaches(edges, next, target, seen))) {
                return true;
            }
        }
        return false;
    }
}
