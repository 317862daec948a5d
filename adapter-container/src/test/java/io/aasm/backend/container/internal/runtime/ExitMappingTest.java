package io.aasm.backend.container.internal.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchFailureKind;
import org.junit.jupiter.api.Test;

class ExitMappingTest {
    @Test
    void theEnginesNumberBecomesAnExitASignalOrAFailedExec() {
        assertEquals(new ExitDisposition.Exited(3), ExitMapping.map(3, false, 0, ""));
        assertEquals(new ExitDisposition.Signalled(9), ExitMapping.map(137, false, 0, ""));
        assertEquals(new ExitDisposition.Signalled(15), ExitMapping.map(143, false, 15, ""));
        assertEquals(new ExitDisposition.Signalled(9), ExitMapping.map(0, true, 0, ""), "deadline");
        assertEquals(new ExitDisposition.Exited(127), ExitMapping.map(127, false, 0, ""), "a program's own 127");
        assertEquals(LaunchFailureKind.NOT_FOUND, ((ExitDisposition.NotStarted) ExitMapping.map(127, false, 0,
                "/nope: No such file or directory")).kind());
        assertEquals(126, ExitMapping.map(126, false, 0, "/etc/passwd: Permission denied").shellStatus());
        assertEquals(new ExitDisposition.Exited(200), ExitMapping.map(200, false, 0, ""));
    }

    @Test
    void aRuntimeThatCouldNotExecSaysWhy() {
        assertEquals(LaunchFailureKind.NOT_FOUND, ExitMapping.startFailure("runc create failed: exec: \"/nope\": stat "
                + "/nope: no such file or directory: unknown"));
        assertEquals(LaunchFailureKind.NOT_EXECUTABLE, ExitMapping.startFailure("exec: \"/etc/x\": permission denied"));
        assertEquals(LaunchFailureKind.BACKEND_ERROR, ExitMapping.startFailure("cgroup: something else"));
    }
}
