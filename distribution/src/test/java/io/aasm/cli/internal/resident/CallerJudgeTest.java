package io.aasm.cli.internal.resident;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decision logic against fake {@code /proc} trees: a kernel (pid 100, child of init) and a caller
 * (pid 300, child of a shell 200, child of init) that share everything; each test changes one fact. The
 * real-kernel counterpart is {@code io.aasm.cli.e2e.ResidentEscapeIT}.
 */
class CallerJudgeTest {
    private static final long KERNEL = 100;
    private static final long SHELL = 200;
    private static final long CALLER = 300;

    @TempDir
    Path proc;

    @BeforeEach
    void hostLikeTree() throws IOException {
        process(1, "init", 0, Map.of());
        process(KERNEL, "java", 1, Map.of());
        process(SHELL, "bash", 1, Map.of());
        process(CALLER, "aasm-client", SHELL, Map.of());
    }

    /** One fake process; {@code change} overrides status fields, ns identities ("ns:net") and "cgroup". */
    private void process(long pid, String comm, long ppid, Map<String, String> change) throws IOException {
        Map<String, String> f = new HashMap<>(Map.of("NoNewPrivs", "0", "Seccomp", "0", "Seccomp_filters", "0",
                "cgroup", "0::/user.slice\n4:memory:/user.slice"));
        f.putAll(change);
        Path d = Files.createDirectories(proc.resolve(Long.toString(pid)));
        Files.writeString(d.resolve("status"), "Name:\t" + comm + "\nNoNewPrivs:\t" + f.get("NoNewPrivs")
                + "\nSeccomp:\t" + f.get("Seccomp") + "\nSeccomp_filters:\t" + f.get("Seccomp_filters") + "\n");
        Files.writeString(d.resolve("stat"), pid + " (" + comm + ") S " + ppid + " 1 1 0 -1\n");
        Files.writeString(d.resolve("cgroup"), f.get("cgroup") + "\n");
        Path ns = Files.createDirectories(d.resolve("ns"));
        for (String n : ProcFacts.NAMESPACES) {
            Files.deleteIfExists(ns.resolve(n));
            Files.createSymbolicLink(ns.resolve(n), Path.of(f.getOrDefault("ns:" + n, n + ":[4026531" + n.length() + "]")));
        }
    }

    private CallerVerdict judge() {
        return new CallerJudge(proc, KERNEL).judge(CALLER);
    }

    @Test
    void aCallerSharingEverythingWithTheKernelIsServed() {
        CallerVerdict v = judge();
        assertFalse(v.confined(), v.why());
    }

    @Test
    void noNewPrivsTheKernelDoesNotHaveMeansConfined() throws IOException {
        process(CALLER, "aasm-client", SHELL, Map.of("NoNewPrivs", "1"));
        assertTrue(judge().why().contains("no_new_privs is set"), judge().why());
    }

    @Test
    void moreSeccompFiltersThanTheKernelMeansConfined() throws IOException {
        process(KERNEL, "java", 1, Map.of("Seccomp", "2", "Seccomp_filters", "1"));
        process(CALLER, "aasm-client", SHELL, Map.of("Seccomp", "2", "Seccomp_filters", "2"));
        CallerVerdict v = judge();
        assertEquals(1, v.reasons().size(), v.why());
        assertTrue(v.why().contains("Seccomp_filters 2 (the kernel's: 1)"), v.why());
    }

    @Test
    void theSameSeccompAsTheKernelIsNotASignal() throws IOException {
        // a kernel started under, say, a container runtime's filter serves callers under that same filter
        process(KERNEL, "java", 1, Map.of("Seccomp", "2", "Seccomp_filters", "1", "NoNewPrivs", "1"));
        process(CALLER, "aasm-client", SHELL, Map.of("Seccomp", "2", "Seccomp_filters", "1", "NoNewPrivs", "1"));
        assertFalse(judge().confined(), judge().why());
    }

    @Test
    void theKernelsOwnStatusIsReadOnceAndCanOnlyErrTowardsConfined() throws IOException {
        CallerJudge judge = new CallerJudge(proc, KERNEL);
        // the kernel later gains a filter (it cannot lose one): its kept count is lower than the live one
        process(KERNEL, "java", 1, Map.of("Seccomp", "2", "Seccomp_filters", "1", "NoNewPrivs", "1"));
        process(CALLER, "aasm-client", SHELL, Map.of("Seccomp", "2", "Seccomp_filters", "1", "NoNewPrivs", "1"));
        CallerVerdict v = judge.judge(CALLER);
        assertTrue(v.why().contains("Seccomp_filters 1 (the kernel's: 0)"), v.why());
        assertTrue(v.why().contains("no_new_privs is set"), v.why());
        // control: a judge made after the change serves the same caller
        assertFalse(new CallerJudge(proc, KERNEL).judge(CALLER).confined());
    }

    @Test
    void oneJudgeServesManyCallersAndReadsEachCallersFactsAfresh() throws IOException {
        CallerJudge judge = new CallerJudge(proc, KERNEL);
        assertFalse(judge.judge(CALLER).confined(), judge.judge(CALLER).why());
        process(CALLER, "aasm-client", SHELL, Map.of("Seccomp_filters", "1", "ns:net", "net:[999]"));
        CallerVerdict v = judge.judge(CALLER);
        assertTrue(v.why().contains("Seccomp_filters 1 (the kernel's: 0)"), v.why());
        assertTrue(v.why().contains("its own net namespace"), v.why());
        process(CALLER, "aasm-client", SHELL, Map.of());
        assertFalse(judge.judge(CALLER).confined(), judge.judge(CALLER).why());
        // the kernel's cgroups are still read per connection: an operator may move it
        process(CALLER, "aasm-client", SHELL, Map.of("cgroup", "0::/aasm-1234-abcd"));
        assertTrue(judge.judge(CALLER).confined());
        process(KERNEL, "java", 1, Map.of("cgroup", "0::/aasm-1234-abcd"));
        assertFalse(judge.judge(CALLER).confined(), judge.judge(CALLER).why());
    }

    @Test
    void aFieldNameThatOnlyStartsLikeAnotherIsNotIt() throws IOException {
        // "Seccomp_filters:" must not be read as "Seccomp", nor the other way round
        process(CALLER, "aasm-client", SHELL, Map.of("Seccomp", "0", "Seccomp_filters", "3"));
        CallerVerdict v = judge();
        assertEquals(1, v.reasons().size(), v.why());
        assertTrue(v.why().contains("Seccomp_filters 3"), v.why());
    }

    @Test
    void anyNamespaceOfItsOwnMeansConfined() throws IOException {
        for (String n : ProcFacts.NAMESPACES) {
            hostLikeTree();
            process(CALLER, "aasm-client", SHELL, Map.of("ns:" + n, n + ":[999]"));
            assertTrue(judge().why().contains("its own " + n + " namespace"), n + ": " + judge().why());
        }
    }

    @Test
    void aLauncherAncestorMeansConfinedAtAnyDepth() throws IOException {
        for (String launcher : CallerJudge.LAUNCHER_NAMES) {
            process(150, launcher, KERNEL, Map.of());
            process(160, "sh", 150, Map.of());
            process(SHELL, "bash", 160, Map.of());
            assertTrue(judge().why().contains("its ancestor pid 150 is " + launcher), judge().why());
        }
    }

    @Test
    void theKernelsOwnAncestryIsNotTheCallers() throws IOException {
        // the kernel itself was started under a launcher; its caller shares that ancestry and nothing more
        process(50, "aasm-launch", 1, Map.of());
        process(KERNEL, "java", 50, Map.of());
        process(SHELL, "bash", KERNEL, Map.of());
        assertFalse(judge().confined(), judge().why());
    }

    @Test
    void anAasmLaunchGroupTheKernelIsNotInMeansConfined() throws IOException {
        process(CALLER, "aasm-client", SHELL, Map.of("cgroup", "0::/aasm-1234-abcd\n4:memory:/user.slice"));
        assertTrue(judge().why().contains("aasm launch group aasm-1234-abcd"), judge().why());
        process(KERNEL, "java", 1, Map.of("cgroup", "0::/aasm-1234-abcd\n4:memory:/user.slice"));
        assertFalse(judge().confined(), judge().why());
    }

    @Test
    void whatCannotBeReadCountsAsConfined() throws IOException {
        Files.delete(proc.resolve(CALLER + "/status"));
        Files.delete(proc.resolve(CALLER + "/ns/net"));
        Files.delete(proc.resolve(CALLER + "/cgroup"));
        CallerVerdict v = judge();
        assertTrue(v.why().contains("status cannot be read"), v.why());
        assertTrue(v.why().contains("net namespace cannot be read"), v.why());
        assertTrue(v.why().contains("cgroups cannot be read"), v.why());
    }

    @Test
    void aVanishedCallerOrAnInvisibleOneIsConfined() throws IOException {
        assertTrue(new CallerJudge(proc, KERNEL).judge(0).confined());
        assertTrue(new CallerJudge(proc, KERNEL).judge(4242).confined());
        Files.delete(proc.resolve(SHELL + "/stat"));
        assertTrue(judge().why().contains("ancestor pid " + SHELL + " cannot be read"), judge().why());
    }

    @Test
    void aCommWithSpacesAndParenthesesIsParsed() throws IOException {
        process(SHELL, "we(ir) d)", 1, Map.of());
        assertFalse(judge().confined(), judge().why());
        process(SHELL, "a) (aasm-launch", 1, Map.of());
        assertFalse(judge().confined(), "a name that merely contains the launcher's is not the launcher");
    }
}
