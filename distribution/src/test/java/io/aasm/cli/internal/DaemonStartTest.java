package io.aasm.cli.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The resident kernel asks for VFORK only from a JDK known to offer it: one without it refuses every launch. */
class DaemonStartTest {
    @Test
    void vforkOnlyWhereTheJdkOffersIt() {
        List<String> vfork = List.of("-Djdk.lang.Process.launchMechanism=VFORK");
        assertEquals(vfork, DaemonStart.launchMechanism(17));
        assertEquals(vfork, DaemonStart.launchMechanism(21));
        assertEquals(List.of(), DaemonStart.launchMechanism(22));
        assertEquals(List.of(), DaemonStart.launchMechanism(16));
    }

    @Test
    void thisJdkStartsProcessesWithTheMechanismTheKernelGets() throws Exception {
        // The effect, on the JDK the build runs: a JVM started with the kernel's option can start a process.
        List<String> cmd = new java.util.ArrayList<>(List.of(java.nio.file.Path.of(System.getProperty("java.home"),
                "bin", "java").toString()));
        cmd.addAll(DaemonStart.launchMechanism(Runtime.version().feature()));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), StartsTrue.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        assertEquals(0, p.waitFor(), out);
        assertEquals("true exited 0", out);
    }

    /** Starts /bin/true through ProcessBuilder and says how it ended. */
    public static final class StartsTrue {
        private StartsTrue() {
        }

        public static void main(String[] args) throws Exception {
            System.out.println("true exited " + new ProcessBuilder("/bin/true").start().waitFor());
        }
    }
}
