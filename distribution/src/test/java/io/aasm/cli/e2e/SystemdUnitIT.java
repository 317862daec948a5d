package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The shipped systemd user unit, statically: systemd's own parser accepts it without a warning (with
 * ExecStart= pointed at this build, as an install does), it runs {@code daemon run} in the foreground,
 * and it carries none of the sandboxing options that would give the kernel namespaces of its own (then
 * every caller would look confined to it and every run would go cold).
 */
class SystemdUnitIT {
    static final Path UNIT = Aasm.DIST.resolve("lib/systemd/user/aasm.service");
    static final List<String> SANDBOXING = List.of("PrivateTmp", "PrivateNetwork", "PrivateUsers", "PrivateDevices",
            "PrivateIPC", "PrivateMounts", "ProtectSystem", "ProtectHome", "ProtectKernelTunables",
            "ProtectControlGroups", "ProtectProc", "RootDirectory", "RootImage", "NetworkNamespacePath",
            "IPCNamespacePath", "ProtectHostname", "ProtectClock", "TemporaryFileSystem", "BindPaths",
            "BindReadOnlyPaths", "RestrictNamespaces", "DynamicUser");

    @Test
    void theUnitRunsTheKernelInTheForegroundWithoutNamespacesOfItsOwn() throws Exception {
        Map<String, Map<String, String>> unit = parse(Files.readString(UNIT));
        assertEquals(List.of("Unit", "Service", "Install"), List.copyOf(unit.keySet()));
        assertEquals("simple", unit.get("Service").get("Type"));
        assertTrue(unit.get("Service").get("ExecStart").endsWith("/bin/aasm daemon run"), unit.toString());
        assertEquals("default.target", unit.get("Install").get("WantedBy"));
        for (String key : SANDBOXING) {
            assertTrue(!unit.get("Service").containsKey(key), key + " would make every caller look confined");
        }
    }

    @Test
    void systemdAcceptsTheUnitWithoutAWarning() throws Exception {
        Path analyze = Path.of("/usr/bin/systemd-analyze");
        assertTrue(Files.isExecutable(analyze), "environment cannot host this check: no systemd-analyze"
                + " (Debian package systemd; .ci/run installs it)");
        Path dir = Aasm.outsideTmp("unit");
        Path runtime = Files.createDirectory(dir.resolve("rt"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path installed = dir.resolve("aasm.service");
        Files.writeString(installed, Files.readString(UNIT).replace("/opt/aasm/",
                Aasm.DIST.toAbsolutePath().normalize() + "/"));
        Aasm.Result r = Aasm.command(dir, Map.of("XDG_RUNTIME_DIR", runtime.toString()),
                List.of(analyze.toString(), "--user", "verify", installed.toString()));
        assertEquals(0, r.exit(), r.toString());
        assertEquals("", r.err().strip(), "systemd warned about the unit:\n" + r);
        // control: the same parser does complain about a unit with an unknown key
        Files.writeString(installed, Files.readString(installed).replace("[Service]\n", "[Service]\nNoSuchKey=1\n"));
        Aasm.Result bad = Aasm.command(dir, Map.of("XDG_RUNTIME_DIR", runtime.toString()),
                List.of(analyze.toString(), "--user", "verify", installed.toString()));
        assertTrue(bad.err().contains("NoSuchKey"), bad.toString());
    }

    /** Sections and keys (the last value of a repeated key), comments and blank lines skipped. */
    static Map<String, Map<String, String>> parse(String text) {
        Map<String, Map<String, String>> sections = new LinkedHashMap<>();
        Map<String, String> current = null;
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            if (line.startsWith("[") && line.endsWith("]")) {
                current = sections.computeIfAbsent(line.substring(1, line.length() - 1), k -> new LinkedHashMap<>());
                continue;
            }
            int eq = line.indexOf('=');
            assertTrue(current != null && eq > 0, "not a unit file line: " + raw);
            current.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
        }
        return sections;
    }
}
