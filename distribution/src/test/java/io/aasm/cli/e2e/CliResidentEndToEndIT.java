package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Every end-to-end expectation of the cold path ({@link CliEndToEndIT}), run again with a resident
 * kernel up: {@code bin/aasm run ...} then goes through {@code bin/aasm-client} and the kernel's socket
 * (commands other than {@code run}, and the shell, stay cold). At the end the kernel must have served
 * those runs, so a silent fall back to the cold path cannot pass for the resident one.
 */
class CliResidentEndToEndIT extends CliEndToEndIT {
    private static ResidentKernel kernel;

    @BeforeAll
    static void startKernel() throws Exception {
        kernel = ResidentKernel.start(Map.of());
        Aasm.BASE_ENV.putAll(kernel.env());
    }

    @AfterAll
    static void stopKernel() throws Exception {
        Aasm.BASE_ENV.clear();
        try {
            Aasm.Result s = kernel.status();
            int served = Integer.parseInt(s.out().replaceAll("(?s).*connections=(\\d+).*", "$1"));
            // the runs of the inherited tests, each one connection (status queries add a few)
            assertTrue(served >= 15, "the resident kernel served only " + served + " connections: " + s);
        } finally {
            kernel.close();
        }
    }
}
