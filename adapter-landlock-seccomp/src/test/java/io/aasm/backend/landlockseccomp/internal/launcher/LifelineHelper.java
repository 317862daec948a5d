package io.aasm.backend.landlockseccomp.internal.launcher;

import java.nio.file.Path;
import java.util.EnumSet;

/**
 * A stand-in supervisor JVM for the lifeline test: starts the launcher with a plan whose program leaves a
 * setsid daemon behind, prints the launcher's pid, then waits to be SIGKILLed by the test.
 * Args: launcher path, script, "pidns", "nopidns" or "relay".
 */
public final class LifelineHelper {
    private LifelineHelper() {
    }

    public static void main(String[] args) throws Exception {
        PlanMessage.Builder plan = LauncherFixture.sh(args[1]);
        if (args[2].equals("pidns")) {
            plan.namespaces(EnumSet.of(PlanRecord.Namespace.USER, PlanRecord.Namespace.PID, PlanRecord.Namespace.MOUNT))
                    .userMap(0, 0, 0, 0).mountProc();
        }
        if (args[2].equals("relay")) {
            // A relay outside the tree: it must not survive the supervisor either.
            plan.namespaces(EnumSet.of(PlanRecord.Namespace.USER, PlanRecord.Namespace.PID, PlanRecord.Namespace.MOUNT,
                    PlanRecord.Namespace.NET)).userMap(0, 0, 0, 0).mountProc().loopbackUp().relayTcpPort(9);
        }
        LauncherProcess p = LauncherProcess.start(Path.of(args[0]), plan.build(), LaunchOptions.inherit());
        StartOutcome s = p.awaitStart();
        System.out.println("launcher " + p.pid() + " " + s);
        System.out.flush();
        Thread.sleep(600_000);
    }
}
