package io.aasm.backend.vm.internal.vz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.vm.internal.image.Digests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The helper's file rules, each refusal beside the control that differs by that one property. Runs nothing. */
class HelperBinaryTest {
    @Test
    void eachRuleRefusesAndItsControlPasses(@TempDir Path dir) throws Exception {
        Path folder = Files.createDirectories(dir.resolve("bin"));
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path helper = Files.writeString(folder.resolve("aasm-vz"), "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(helper, PosixFilePermissions.fromString("rwxr-xr-x"));
        Optional<String> pin = Optional.of(Digests.sha256(helper));
        Optional<Path> p = Optional.of(helper);
        int uid = (Integer) Files.getAttribute(helper, "unix:uid"); // the user who made it: this process

        assertEquals(Optional.empty(), HelperBinary.problem(p, pin, uid), "the control: every rule holds");

        assertTrue(HelperBinary.problem(Optional.empty(), pin, uid).orElseThrow().contains("no aasm-vz helper"));
        assertTrue(HelperBinary.problem(p, Optional.empty(), uid).orElseThrow().contains("no valid helper.sha256"));
        assertTrue(HelperBinary.problem(p, Optional.of("abc"), uid).orElseThrow().contains("no valid helper.sha256"));
        assertTrue(HelperBinary.problem(p, Optional.of("0".repeat(64)), uid).orElseThrow()
                .contains("[helper_digest_mismatch]"));

        Files.setPosixFilePermissions(helper, PosixFilePermissions.fromString("rw-r--r--"));
        assertTrue(HelperBinary.problem(p, pin, uid).orElseThrow().contains("is not executable"));
        Files.setPosixFilePermissions(helper, PosixFilePermissions.fromString("rwxrwxr-x"));
        assertTrue(HelperBinary.problem(p, pin, uid).orElseThrow().contains("writable by its group or others"));
        Files.setPosixFilePermissions(helper, PosixFilePermissions.fromString("rwxr-xr-x"));

        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertTrue(HelperBinary.problem(p, pin, uid).orElseThrow().contains("folder"));
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));

        Path link = Files.createSymbolicLink(folder.resolve("link"), helper);
        assertTrue(HelperBinary.problem(Optional.of(link), pin, uid).orElseThrow().contains("not a regular file"));

        assertEquals(Optional.empty(), HelperBinary.problem(p, pin, uid), "the control again, everything restored");
    }
}
