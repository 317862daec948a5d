package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.req;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.Scope;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Environment delegation and /proc isolation, observed through files written by a grandchild. */
class CredentialConfinementTest {
    @TempDir
    Path tmp;

    @Test
    void onlyDelegatedNamesReachTheGrandchildAndAnotherProcessEnvironIsUnreachable() throws Exception {
        Harness h = Harness.shared();
        String marker = "AASM_OUTSIDE_MARK=" + java.util.UUID.randomUUID();
        try (var outside = h.outside(Map.of("AASM_OUTSIDE_MARK", marker.substring(18)))) {
            Path environ = tmp.resolve("environ");
            Path env = tmp.resolve("env");
            String action = "env > " + env + "; cat /proc/" + outside.pid() + "/environ > " + environ;
            Map<String, String> childEnv = Map.of("AASM_KEEP", "kept-value", "AASM_SECRET", "secret-value");
            h.run(Harness.grandchild("/bin/sh", action, tmp, childEnv, List.of(req(CapabilityDomain.CREDENTIAL,
                    new Scope.Delegated(List.of("AASM_KEEP"))))));
            String seen = Files.readString(env);
            assertTrue(seen.contains("AASM_KEEP=kept-value"), seen);
            assertFalse(seen.contains("AASM_SECRET"), seen);
            assertFalse(new String(Files.readAllBytes(environ), StandardCharsets.ISO_8859_1).contains(marker),
                    "another process's environ must be unreachable inside the pid namespace");
            // Control: without the credential requirement both the name and the other environ are visible.
            h.run(Harness.grandchild("/bin/sh", action, tmp, childEnv, List.of()));
            assertTrue(Files.readString(env).contains("AASM_SECRET=secret-value"));
            assertTrue(new String(Files.readAllBytes(environ), StandardCharsets.ISO_8859_1).contains(marker),
                    "control: another process's environ is readable without the pid namespace");
        }
    }

    @Test
    void noProcessVisibleInsideExposesAnotherProcessEnvironment() throws Exception {
        Harness h = Harness.shared();
        String marker = "AASM_OUTSIDE_MARK=" + java.util.UUID.randomUUID();
        try (var outside = h.outside(Map.of("AASM_OUTSIDE_MARK", marker.substring(18)))) {
            Path all = tmp.resolve("all");
            // Every environ readable inside the pid namespace (pid 1 is the launcher's init, non-dumpable).
            String action = "for f in /proc/[0-9]*/environ; do cat $f; done > " + all;
            // No filesystem statement: a Landlock domain would itself keep the program from reading /proc entries
            // of processes outside it, and the control must show the pid namespace alone at work.
            h.sh(action, tmp, req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of())));
            assertFalse(new String(Files.readAllBytes(all), StandardCharsets.ISO_8859_1).contains(marker),
                    "a process visible inside the namespace exposes an outside environment");
            h.sh(action, tmp);
            assertTrue(new String(Files.readAllBytes(all), StandardCharsets.ISO_8859_1).contains(marker),
                    "control: without the requirement the host's processes are readable");
        }
    }

    @Test
    void inheritedDescriptorsAreSealed() throws Exception {
        Harness h = Harness.shared();
        Path fds = tmp.resolve("fds");
        // A descriptor the supervisor leaks on purpose (no close-on-exec) must not reach the program.
        try (java.io.RandomAccessFile leak = new java.io.RandomAccessFile(tmp.resolve("leak").toFile(), "rw")) {
            // The launcher keeps only stdio: the grandchild lists its fds (3 is ls's own directory handle).
            h.sh("ls /proc/self/fd > " + fds, tmp, req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of())));
        }
        List<String> open = Files.readAllLines(fds);
        assertTrue(open.containsAll(List.of("0", "1", "2")), "stdio must be kept: " + open);
        var handle = h.start(Harness.grandchild("/bin/sh", "true", tmp, Map.of(), List.of()));
        handle.await();
        var inventory = handle.descriptors().orElseThrow();
        assertTrue(inventory.clean(), inventory.toString());
        assertTrue(inventory.kept().containsAll(List.of(0, 1, 2)), inventory.toString());
        assertTrue(open.stream().allMatch(f -> f.matches("[0-3]")), "unexpected descriptors " + open);
    }
}
