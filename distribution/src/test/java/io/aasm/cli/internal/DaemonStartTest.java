package io.aasm.cli.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The resident kernel's JVM options: native-heap trimming only where the JVM has it as a product switch (an
 * unknown or experimental option would keep the daemon from starting), and this machine's JVM really accepts
 * the whole set it would be given.
 */
class DaemonStartTest {
    @Test
    void trimmingOnlyWhereItIsAProductSwitch() {
        for (String v : List.of("17.0.8", "17.0.10", "18.0.2", "20.0.2", "21", "21.0.2", "22")) {
            assertFalse(DaemonStart.trimsNativeHeap(Runtime.Version.parse(v)), v);
        }
        for (String v : List.of("17.0.11", "17.0.21.1", "21.0.3", "22.0.1", "23", "25.0.1")) {
            assertTrue(DaemonStart.trimsNativeHeap(Runtime.Version.parse(v)), v);
        }
    }

    @Test
    void thisJvmAcceptsTheDaemonOptions() throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElseThrow());
        cmd.addAll(DaemonStart.DAEMON_JVM);
        boolean trims = DaemonStart.trimsNativeHeap(Runtime.version());
        if (trims) {
            cmd.add(DaemonStart.TRIM_NATIVE_HEAP);
        }
        cmd.add("-XX:+PrintFlagsFinal");
        cmd.add("-version");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        // the effect, not only the exit: the JVM reports the interval it will trim at (0: never)
        String line = out.lines().filter(l -> l.contains(" TrimNativeHeapInterval ")).findFirst().orElse("");
        assertEquals(trims, line.matches(".*TrimNativeHeapInterval\\s+=\\s+5000\\s.*"), line);
    }
}
