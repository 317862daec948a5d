package io.aasm.kernel.internal.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.aasm.ports.backend.LaunchFailureKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgramResolverTest {

    @TempDir
    Path dir;

    private final ProgramResolver resolver = new ProgramResolver();

    private Path executable(Path p) throws Exception {
        Files.writeString(p, "#!/bin/sh\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    @Test
    void bareNamesAreSearchedOnTheCallersPathInOrder() throws Exception {
        Path first = Files.createDirectory(dir.resolve("first"));
        Path second = Files.createDirectory(dir.resolve("second"));
        executable(second.resolve("tool"));
        Files.writeString(first.resolve("tool"), "not executable");
        ProgramResolver.Resolution r = resolver.resolve("tool", "/", Map.of("PATH", first + ":" + second));
        assertEquals(second.resolve("tool").toString(),
                assertInstanceOf(ProgramResolver.Resolution.Found.class, r).path());
    }

    @Test
    void aNonExecutableMatchOnlyIs126() throws Exception {
        Files.writeString(dir.resolve("tool"), "x");
        ProgramResolver.Resolution r = resolver.resolve("tool", "/", Map.of("PATH", dir.toString()));
        assertEquals(LaunchFailureKind.NOT_EXECUTABLE,
                assertInstanceOf(ProgramResolver.Resolution.Failed.class, r).kind());
    }

    @Test
    void notOnPathOrNoPathIs127() {
        assertEquals(LaunchFailureKind.NOT_FOUND, ((ProgramResolver.Resolution.Failed)
                resolver.resolve("tool", "/", Map.of("PATH", dir.toString()))).kind());
        assertEquals(LaunchFailureKind.NOT_FOUND, ((ProgramResolver.Resolution.Failed)
                resolver.resolve("sh", "/", Map.of())).kind());
    }

    @Test
    void slashNamesAreRelativeToTheWorkingDirectory() throws Exception {
        executable(dir.resolve("run.sh"));
        assertEquals(dir.resolve("run.sh").toString(), ((ProgramResolver.Resolution.Found)
                resolver.resolve("./run.sh", dir.toString(), Map.of())).path());
        assertEquals(LaunchFailureKind.NOT_EXECUTABLE, ((ProgramResolver.Resolution.Failed)
                resolver.resolve("./", dir.toString(), Map.of())).kind());
    }
}
