package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link ReportFileIT} with a resident kernel up, so that the kernel opens and writes the report file. */
class ReportFileResidentIT extends ReportFileIT {
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
            // at least the two report runs and the directory swap (the full-disk runs need root)
            assertTrue(served >= 3, "the resident kernel served only " + served + " connections: " + s);
        } finally {
            kernel.close();
        }
    }
}
