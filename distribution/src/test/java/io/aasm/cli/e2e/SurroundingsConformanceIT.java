package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The conformance suite's surroundings family (issue 11) run from the built distribution the way a user
 * would: {@code aasm:conformance --family surroundings --backend aasm-native} in {@code bin/aasm shell},
 * with a resident kernel running on a private runtime directory. Inside an installation the family also
 * hosts its distribution-level scenarios (requests to a resident kernel from inside a boundary, the stop
 * frame, {@code bin/aasm} run from inside). Every scenario must have a verdict on aasm-native and none
 * may fail; {@code none} may prevent nothing. Once as the invoking user, once as uid 65534. The same on
 * sandlock where the distribution finds its executable (as the backend does), both users too.
 */
class SurroundingsConformanceIT {
    static final Path PINNED = Path.of("..", ".ci", "conformance-scenarios.txt");
    static final Pattern CELL = Pattern.compile("\"scenario\": \"([^\"]+)\", \"domain\": \"[^\"]+\", \"backend\": \"([^\"]+)\","
            + " \"outcome\": \"([^\"]+)\", \"fails\": (true|false)");
    private static final List<String> NOBODY = List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534",
            "--clear-groups");

    record Cell(String scenario, String backend, String outcome, boolean fails, String line) {
    }

    /** Whether the distribution finds a sandlock executable: AA_SANDLOCK_BIN, else {@code sandlock} on PATH. */
    static boolean sandlockFound() {
        String bin = System.getenv("AA_SANDLOCK_BIN");
        return bin != null && Files.isExecutable(Path.of(bin)) || java.util.Arrays.stream(System.getenv()
                .getOrDefault("PATH", "").split(":")).anyMatch(d -> Files.isExecutable(Path.of(d, "sandlock")));
    }

    @Test
    void theFamilyHoldsOnSandlockFromTheBuiltDistribution() throws Exception {
        Assumptions.assumeTrue(sandlockFound(), "environment cannot host this check: no sandlock executable"
                + " (set AA_SANDLOCK_BIN)");
        ResidentKernel kernel = ResidentKernel.prepare();
        kernel.startHere(Map.of());
        try {
            Map<String, String> env = new HashMap<>(kernel.env());
            env.put("XDG_CACHE_HOME", Aasm.CACHE.toString());
            env.put("XDG_STATE_HOME", privateState());
            judge(runFamily(List.of(), Aasm.tempDir("surr-sandlock-cwd"), env, "sandlock"), true, "sandlock");
        } finally {
            kernel.close();
        }
    }

    @Test
    void theFamilyHoldsOnAasmNativeFromTheBuiltDistribution() throws Exception {
        ResidentKernel kernel = ResidentKernel.prepare();
        kernel.startHere(Map.of());
        try {
            Map<String, String> env = new HashMap<>(kernel.env());
            env.put("XDG_CACHE_HOME", Aasm.CACHE.toString());
            env.put("XDG_STATE_HOME", privateState());
            judge(runFamily(List.of(), Aasm.tempDir("surr-cwd"), env, "aasm-native"), true, "aasm-native");
        } finally {
            kernel.close();
        }
    }

    /**
     * The same family on aasm-container, where a container engine runs (.ci/run starts one): inside an
     * installation its distribution-level scenarios are hosted too. Without an engine every cell is
     * cannot-host, which this test reports as "environment cannot host this check".
     */
    @Test
    void theFamilyHoldsOnAasmContainerFromTheBuiltDistribution() throws Exception {
        String host = System.getenv().getOrDefault("DOCKER_HOST", "");
        Assumptions.assumeTrue(host.startsWith("unix://") || Files.exists(Path.of("/var/run/docker.sock")),
                "environment cannot host this check: no container engine (set DOCKER_HOST=unix://<socket>)");
        ResidentKernel kernel = ResidentKernel.prepare();
        kernel.startHere(Map.of());
        try {
            Map<String, String> env = new HashMap<>(kernel.env());
            env.put("XDG_CACHE_HOME", Aasm.CACHE.toString());
            env.put("XDG_STATE_HOME", privateState());
            judge(runFamily(List.of(), Aasm.tempDir("surr-container-cwd"), env, "aasm-container"), true, "aasm-container");
        } finally {
            kernel.close();
        }
    }

    @Test
    void theFamilyHoldsForAnUnprivilegedUser() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")) && "0".equals(new String(
                new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes()).strip()),
                "environment cannot host this check: switching to uid 65534 needs root and setpriv");
        Path base = SocketAttacker.outsideEveryGrant("surr-nobody-");
        own(base, "rwxr-xr-x");
        Aasm.Result readable = Aasm.command(base, Map.of(), asNobody(List.of("/bin/sh", "-c",
                "test -r " + Aasm.DIST.resolve("lib/aasm-boot.jar") + " && test -x " + Aasm.DIST.resolve("bin/aasm"))));
        Assumptions.assumeTrue(readable.exit() == 0, "environment cannot host this check: uid 65534 cannot read the"
                + " installation at " + Aasm.DIST);
        Map<String, String> env = new HashMap<>();
        for (String d : List.of("cache", "rt", "home")) {
            own(Files.createDirectory(base.resolve(d)), "rwx------");
        }
        env.put("XDG_CACHE_HOME", base.resolve("cache").toString());
        env.put("XDG_RUNTIME_DIR", base.resolve("rt").toString());
        env.put("HOME", base.resolve("home").toString());
        String aasm = Aasm.DIST.resolve("bin/aasm").toString();
        Aasm.Result start = Aasm.command(base.resolve("home"), env, asNobody(List.of(aasm, "daemon", "start")));
        assertEquals(0, start.exit(), start.toString());
        try {
            judge(runFamily(NOBODY, base.resolve("home"), env, "aasm-native"), false, "aasm-native");
            if (sandlockFound()) {
                judge(runFamily(NOBODY, base.resolve("home"), env, "sandlock"), false, "sandlock");
            }
        } finally {
            Aasm.command(base.resolve("home"), env, asNobody(List.of(aasm, "daemon", "stop")));
        }
    }

    /**
     * A state folder of the test's own: the audit-log scenario damages the log for real under {@code none}
     * (and puts it back), which must never touch the invoking user's own log.
     */
    private static String privateState() throws Exception {
        return SocketAttacker.outsideEveryGrant("surr-state-").toString();
    }

    /** Runs the family in the shell (as {@code prefix}'s user) and returns the cells of its results file. */
    private static List<Cell> runFamily(List<String> prefix, Path cwd, Map<String, String> env, String backend)
            throws Exception {
        Path commands = cwd.resolve("surroundings.gogo");
        Files.writeString(commands, "aasm:conformance --family surroundings --backend " + backend + "\n");
        Path out = Files.createTempFile(SocketAttacker.outsideEveryGrant("surr-out-"), "shell", ".out");
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(List.of(Aasm.DIST.resolve("bin/aasm").toString(), "shell"));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectInput(commands.toFile())
                .redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().put("AASM_CDS", "off");
        pb.environment().putAll(env);
        Process p = pb.start();
        assertTrue(p.waitFor(30, TimeUnit.MINUTES), "the shell did not finish the family");
        String shell = Files.readString(out);
        Matcher m = Pattern.compile("results in (\\S+)").matcher(shell);
        assertTrue(m.find(), "no results directory in the shell's output:\n" + shell);
        List<Cell> cells = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(m.group(1), "conformance-results.json"))) {
            Matcher c = CELL.matcher(line);
            if (c.find()) {
                cells.add(new Cell(c.group(1), c.group(2), c.group(3), Boolean.parseBoolean(c.group(4)), line.strip()));
            }
        }
        return cells;
    }

    private static void judge(List<Cell> cells, boolean invokingUser, String backend) throws Exception {
        List<String> family = Files.readAllLines(PINNED).stream().map(String::strip).filter(l -> l.startsWith("surr-"))
                .toList();
        List<Cell> nat = cells.stream().filter(c -> c.backend().equals(backend)).toList();
        List<Cell> none = cells.stream().filter(c -> c.backend().equals("none")).toList();
        assertEquals(family, nat.stream().map(Cell::scenario).toList(), "a verdict per scenario on " + backend);
        assertEquals(family, none.stream().map(Cell::scenario).toList(), "a verdict per scenario on none");
        assertEquals(List.of(), lines(nat.stream().filter(Cell::fails).toList()), "failing " + backend + " cells");
        // unconfined, every action this host can stage must work: otherwise its scenario could not fail
        assertEquals(List.of(), lines(none.stream().filter(c -> !List.of("escaped", "uncovered-and-truthful",
                "cannot-host").contains(c.outcome())).toList()), "none must let every hostable action through");
        if (invokingUser && SocketAttacker.available()) {
            // inside the installation the distribution-level scenarios are hosted, not excused
            assertEquals(List.of(), lines(nat.stream().filter(c -> c.scenario().startsWith("surr-dist-")
                    && c.outcome().equals("cannot-host")).toList()), "distribution-level scenarios not hosted");
        }
        long escapes = none.stream().filter(c -> !c.outcome().equals("cannot-host")).count();
        assertTrue(escapes >= 12, "only " + escapes + " actions could be staged here:\n" + String.join("\n", lines(none)));
    }

    private static List<String> lines(List<Cell> cells) {
        return cells.stream().map(Cell::line).collect(Collectors.toList());
    }

    private static List<String> asNobody(List<String> cmd) {
        List<String> all = new ArrayList<>(NOBODY);
        all.addAll(cmd);
        return all;
    }

    private static void own(Path p, String mode) throws Exception {
        Files.setAttribute(p, "unix:uid", 65534);
        Files.setAttribute(p, "unix:gid", 65534);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
    }
}
