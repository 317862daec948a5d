package io.aasm.backend.vm.internal.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The guest agent's own plan decoder and seccomp compiler (plan.c, filter.c with this host's libseccomp.a, as the
 * agent links it) in a small harness, src/test/c/plan_check.c, that prints what a plan payload decodes to.
 */
public final class PlanCheck {
    private static final Path GUEST = Path.of("src/main/c/guest").toAbsolutePath();
    private static final Path CHECK = Path.of("target/plan_check").toAbsolutePath();

    private PlanCheck() {
    }

    public static synchronized void compile() throws Exception {
        Process cc = new ProcessBuilder(System.getenv().getOrDefault("CC", "cc"), "-std=gnu11", "-D_GNU_SOURCE",
                "-Wall", "-Werror", "-I", GUEST.toString(), "-o", CHECK.toString(),
                Path.of("src/test/c/plan_check.c").toAbsolutePath().toString(), GUEST.resolve("plan.c").toString(),
                GUEST.resolve("filter.c").toString(), "-l:libseccomp.a").redirectErrorStream(true).start();
        String out = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, cc.waitFor(), "the C compiler and libseccomp.a the agent's build needs failed "
                + "(apt-get install gcc libc6-dev libseccomp-dev): " + out);
    }

    /** "ok ..." with what the plan holds, or "refused token:detail". */
    public static String decode(byte[] plan) throws Exception {
        Path in = Files.createTempFile("plan", ".bin");
        try {
            Files.write(in, plan);
            Process p = new ProcessBuilder(CHECK.toString()).redirectInput(in.toFile()).redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            assertEquals(0, p.waitFor(), out);
            return out;
        } finally {
            Files.delete(in);
        }
    }
}
