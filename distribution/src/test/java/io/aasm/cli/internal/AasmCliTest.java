package io.aasm.cli.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.conformance.ConformanceRun;
import io.aasm.ports.conformance.ConformanceSuite;
import io.aasm.ports.kernel.BackendStatus;
import io.aasm.ports.kernel.IsolationKernel;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.kernel.LaunchRequest;
import io.aasm.ports.kernel.LaunchSession;
import io.aasm.ports.kernel.PolicyCheck;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.PolicyProblem;
import io.aasm.ports.policy.SourceLocation;
import io.aasm.ports.report.ReportFormatName;
import io.aasm.ports.report.ReportRenderer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The command layer against a recording kernel: parsing, exit statuses, and that nothing launches early. */
class AasmCliTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final RecordingKernel kernel = new RecordingKernel();
    private final ReportFormats formats = new ReportFormats();

    @Test
    void anUnknownOptionIsAUsageErrorWithoutWaitingForTheKernel() {
        assertEquals(2, run(false, "run", "exec", "--bogus", "--", "/bin/true"));
        assertTrue(err().contains("--bogus"), err());
        assertEquals(2, run(false, "run", "exec", "--isolation", "none"));
        assertEquals(2, run(false, "run"));
        assertEquals(2, run(false));
    }

    @Test
    void helpListsTheExitCodes() {
        assertEquals(0, run(false, "run", "exec", "--help"));
        assertTrue(out().contains("Exit codes:") && out().contains("127") && out().contains("128+N"), out());
    }

    @Test
    void aMissingKernelIsAFailureBeforeStart() {
        assertEquals(125, run(false, "run", "exec", "--isolation", "none", "--", "/bin/true"));
        assertTrue(err().contains("isolation kernel service did not appear"), err());
    }

    @Test
    void aRejectedPolicyPrintsEveryProblemAndLaunchesNothing() {
        kernel.decision = new LaunchDecision.PolicyRejected("/p.yaml", List.of(
                new PolicyProblem(new SourceLocation("/p.yaml", 3, 5), "unknown key `reed`", "did you mean `read`?"),
                new PolicyProblem(new SourceLocation("/p.yaml", 7, 9), "relative path `usr`", "use /usr")));
        assertEquals(125, run(true, "run", "exec", "--policy", "/p.yaml", "--", "/bin/true"));
        assertTrue(err().contains("/p.yaml:3:5: unknown key `reed`") && err().contains("/p.yaml:7:9:"), err());
        assertEquals(0, kernel.launches.get());
        assertEquals(125, run(true, "run", "exec", "--dry-run", "--policy", "/p.yaml", "--", "/bin/true"));
    }

    @Test
    void flagsReachTheKernelRequestUnchanged() {
        kernel.decision = new LaunchDecision.PolicyRejected("/p.yaml", List.of(
                new PolicyProblem(new SourceLocation("/p.yaml", 1, 1), "x", "")));
        run(true, "run", "exec", "--isolation", "process", "--isolation-backend", "aasm-native", "--agent-id", "bot-7",
                "--", "prog", "-c", "--not-a-flag");
        LaunchRequest r = kernel.requests.get(0);
        assertEquals(Optional.of(IsolationClass.PROCESS), r.isolation());
        assertEquals(Optional.of("aasm-native"), r.pinnedBackend());
        assertEquals("prog", r.program());
        assertEquals(List.of("-c", "--not-a-flag"), r.args());
        assertEquals("bot-7", r.identity().agentId());
        assertEquals(Optional.of("/home/conf/default-policy.yaml"), r.policyFile(), "the distribution default policy");
    }

    @Test
    void aReusedRunModelKeepsNothingOfThePreviousCall() {
        kernel.decision = rejected();
        run(true, "run", "exec", "--isolation", "process", "--isolation-backend", "aasm-native", "--agent-id", "bot-7",
                "--policy", "/p.yaml", "--no-proxy", "--verify", "--workdir", "/", "--", "prog", "-c", "x");
        run(true, "run", "exec", "--", "other");
        LaunchRequest first = kernel.requests.get(0);
        LaunchRequest second = kernel.requests.get(1);
        assertEquals(Optional.of(IsolationClass.PROCESS), first.isolation(), "control: the first call's flags arrived");
        assertEquals(List.of("-c", "x"), first.args());
        assertEquals(Optional.empty(), second.isolation());
        assertEquals(Optional.empty(), second.pinnedBackend());
        assertEquals(Optional.of("/home/conf/default-policy.yaml"), second.policyFile());
        assertEquals("other", second.program());
        assertEquals(List.of(), second.args());
        assertTrue(second.transportMediation(), "--no-proxy of the previous call does not carry over");
        assertTrue(first.verify(), "control: --verify arrived");
        assertTrue(!second.verify(), "--verify of the previous call does not carry over");
        assertTrue(!"bot-7".equals(second.identity().agentId()), second.identity().agentId());
        assertEquals(List.of("-c", "x"), first.args(), "the first request's arguments were not reused in place");
    }

    @Test
    void eachCallPrintsToItsOwnStreamsOnTheReusedModel() {
        assertEquals(2, run(false, "run", "exec", "--bogus", "--", "/bin/true"));
        ByteArrayOutputStream second = new ByteArrayOutputStream();
        int status = AasmCli.execute(new Invocation(io(second, "run", "exec", "--other-bogus", "--", "/bin/true"),
                new ServiceGate<>(), new ServiceGate<>(), formats));
        assertEquals(2, status);
        assertTrue(second.toString(StandardCharsets.UTF_8).contains("--other-bogus"), second.toString());
        assertTrue(!err().contains("--other-bogus"), "the first call's stream got nothing of the second: " + err());
        assertEquals(0, run(false, "run", "exec", "--help"));
        kernel.decision = rejected();
        assertEquals(125, run(true, "run", "exec", "--policy", "/p.yaml", "--", "/bin/true"));
        assertEquals(1, kernel.requests.size(), "a --help of the previous call does not stop this one");
    }

    @Test
    void aMissingWorkdirFailsBeforeTheKernelDecides() {
        assertEquals(125, run(true, "run", "exec", "--workdir", "/no/such/dir", "--", "/bin/true"));
        assertTrue(err().contains("--workdir /no/such/dir is not a directory"), err());
        assertEquals(0, kernel.requests.size());
    }

    @Test
    void versionShowsThePathsNoLaunchMayWrite() {
        assertEquals(0, run(false, "version"));
        assertTrue(out().contains("\nprotected /opt/aasm:/home/u/.cache/aasm\n"), out());
    }

    @Test
    void aReportFileInAMissingDirectoryFailsBeforeTheKernelDecides() {
        install("text");
        assertEquals(125, run(true, "run", "exec", "--report-file", "/no/such/dir/report.txt", "--", "/bin/true"));
        assertTrue(err().contains("--report-file /no/such/dir/report.txt: cannot open its directory /no/such/dir"), err());
        assertEquals(0, kernel.requests.size());
    }

    @Test
    void conformanceExitsZeroOnlyWhenEveryCellIsTruthful() {
        FakeSuite suite = new FakeSuite();
        suite.failing = List.of();
        assertEquals(0, runSuite(suite, "conformance", "--backend", "alpha"));
        assertEquals(List.of("alpha/-"), suite.runs);
        assertTrue(out().contains("none s1: prevented\n") && out().contains("PASS; results in /r"), out());
        suite.failing = List.of("alpha s1: untruthful");
        assertEquals(1, runSuite(suite, "conformance", "--family", "domains"));
        assertTrue(out().contains("FAIL: 1 failing cell(s); results in /r"), out());
        assertTrue(err().contains("aasm: failing cell: alpha s1: untruthful"), err());
    }

    @Test
    void conformanceRunsNothingForAnUnknownFamilyOrBackend() {
        FakeSuite suite = new FakeSuite();
        assertEquals(2, runSuite(suite, "conformance", "--family", "nope"));
        assertTrue(err().contains("unknown family 'nope'; families: domains, surroundings"), err());
        assertEquals(125, runSuite(suite, "conformance", "--backend", "nope"));
        assertTrue(err().contains("no backend `nope` is installed; installed: alpha, none"), err());
        assertEquals(2, runSuite(suite, "conformance", "--backends", "alpha"));
        assertEquals(List.of(), suite.runs);
    }

    @Test
    void withoutTheSuiteBundleConformanceFailsBeforeStart() {
        assertEquals(125, runSuite(null, "conformance"));
        assertTrue(err().contains("the conformance suite service did not appear"), err());
    }

    @Test
    void helpListsEveryCommandAndTheBranchAloneParsesTheSame() {
        assertEquals(0, run(false, "--help"));
        for (String c : AasmCli.commands()) {
            assertTrue(out().contains("\n  " + c + " "), c + "\n" + out());
        }
        assertEquals(List.of("run", "backends", "probe", "policy", "version", "shell", "daemon", "conformance",
                "audit"), AasmCli.commands());
        assertEquals(2, run(false, "nosuch"));
        assertTrue(err().contains("Unmatched argument at index 0: 'nosuch'"), err());
    }

    @Test
    void daemonRunIsNotAShellOrClientCommand() {
        assertEquals(2, run(false, "daemon", "run"));
        assertTrue(err().contains("`daemon run` is the resident kernel itself"), err());
    }

    private int runSuite(FakeSuite suite, String... args) {
        out.reset();
        err.reset();
        ServiceGate<ConformanceSuite> gate = new ServiceGate<>();
        if (suite != null) {
            gate.bind(suite);
        }
        return AasmCli.execute(new Invocation(io(args), new ServiceGate<>(), gate, formats));
    }

    /** Records runs; its verdicts are whatever the test sets. */
    static final class FakeSuite implements ConformanceSuite {
        final List<String> runs = new ArrayList<>();
        List<String> failing = List.of();

        @Override
        public List<String> backends() {
            return List.of("alpha", "none");
        }

        @Override
        public List<String> families() {
            return List.of("domains", "surroundings");
        }

        @Override
        public ConformanceRun run(Optional<String> backend, Optional<String> family, Consumer<String> progress) {
            runs.add(backend.orElse("-") + "/" + family.orElse("-"));
            progress.accept("none s1: prevented");
            return new ConformanceRun(failing.isEmpty(), failing, "| table |", "/r");
        }
    }

    @Test
    void reportChoicesAreTheRenderersInstalledNow() {
        install("text", "json");
        kernel.decision = rejected();
        assertEquals(0, run(false, "run", "exec", "--help"));
        String help = out().replaceAll("\\s+", " ");
        assertTrue(help.contains("installed here: json, text (default: text)"), help);
        assertTrue(out().contains("[--report FORMAT]"), out());
        assertEquals(125, run(true, "run", "exec", "--report", "json", "--policy", "/p.yaml", "--", "/bin/true"));
        assertEquals(1, kernel.requests.size(), "control: an installed format reaches the kernel");
        assertEquals(2, run(true, "run", "exec", "--report", "kv", "--policy", "/p.yaml", "--", "/bin/true"));
        assertTrue(err().contains("'kv' is not an installed report format; installed: json, text"), err());
        assertEquals(1, kernel.requests.size(), "an unknown format decided nothing");
    }

    @Test
    void aRendererThatLeavesTakesItsChoiceWithIt() {
        ReportRenderer json = install("text", "json").get(1);
        formats.unbind(json);
        assertEquals(2, run(false, "run", "exec", "--report", "json", "--", "/bin/true"));
        assertTrue(err().contains("installed: text"), err());
        formats.unbind(installed.get(0));
        assertEquals(2, run(false, "run", "exec", "--report", "text", "--", "/bin/true"));
        assertTrue(err().contains("no report renderer is installed"), err());
    }

    @Test
    void theRegisteredFormatNameWinsOverTheRenderersOwnWord() {
        formats.bind(renderer("says-this"), Map.of(ReportFormatName.NAME, "registered"));
        assertEquals(List.of("registered"), formats.names());
    }

    @Test
    void theDefaultFormatWithoutItsRendererFailsBeforeTheKernelDecides() {
        install("json");
        kernel.decision = rejected();
        assertEquals(125, run(true, "run", "exec", "--report-file", "-", "--", "/bin/true"));
        assertTrue(err().contains("no `text` report renderer is installed (installed: json); nothing was launched"),
                err());
        assertEquals(0, kernel.requests.size());
        run(true, "run", "exec", "--policy", "/p.yaml", "--", "/bin/true");
        assertEquals(1, kernel.requests.size(), "control: without --report-file the default format is not needed");
    }

    private final List<ReportRenderer> installed = new ArrayList<>();

    private static LaunchDecision rejected() {
        return new LaunchDecision.PolicyRejected("/p.yaml", List.of(
                new PolicyProblem(new SourceLocation("/p.yaml", 1, 1), "x", "")));
    }

    private List<ReportRenderer> install(String... names) {
        for (String name : names) {
            ReportRenderer r = renderer(name);
            installed.add(r);
            formats.bind(r, Map.of(ReportFormatName.NAME, name));
        }
        return installed;
    }

    /** Only the format name matters to the command layer; rendering goes through the kernel. */
    private static ReportRenderer renderer(String format) {
        return new ReportRenderer() {
            @Override
            public String format() {
                return format;
            }

            @Override
            public String render(io.aasm.ports.report.IsolationReport report) {
                throw new UnsupportedOperationException();
            }
        };
    }

    private int run(boolean withKernel, String... args) {
        ServiceGate<IsolationKernel> gate = new ServiceGate<>();
        if (withKernel) {
            gate.bind(kernel);
        }
        return AasmCli.execute(new Invocation(io(args), gate, new ServiceGate<>(), formats));
    }

    CliIo io(String... args) {
        return io(err, args);
    }

    CliIo io(ByteArrayOutputStream errTo, String... args) {
        CommandInvocation call = new CommandInvocation(List.of(args), "/", Map.of("PATH", "/bin"),
                new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(errTo, true, StandardCharsets.UTF_8), new Stdio.Inherit(),
                new CommandInvocation.Caller(CommandInvocation.Face.CLI, 1, 0), new AtomicInteger(),
                new AtomicReference<>(), List.of());
        return new CliIo(call, new FaceSettings(Optional.of(Path.of("/home")), "test",
                List.of("/opt/aasm", "/home/u/.cache/aasm"), 10, Optional.empty()));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    /** Records requests; launching is counted so a test can prove nothing was launched. */
    static final class RecordingKernel implements IsolationKernel {
        final List<LaunchRequest> requests = new ArrayList<>();
        final AtomicInteger launches = new AtomicInteger();
        LaunchDecision decision;

        @Override
        public PolicyCheck checkPolicy(String policyFile) {
            throw new UnsupportedOperationException();
        }

        @Override
        public LaunchDecision decide(LaunchRequest request) {
            requests.add(request);
            return decision;
        }

        @Override
        public LaunchSession launch(LaunchDecision d) throws LaunchException {
            launches.incrementAndGet();
            throw new UnsupportedOperationException();
        }

        @Override
        public List<BackendStatus> backends() {
            return List.of();
        }

        @Override
        public Optional<BackendStatus> probe(String backendId, boolean refresh) {
            return Optional.empty();
        }

        @Override
        public Optional<ReportRenderer> renderer(String format) {
            return Optional.empty();
        }

        @Override
        public List<String> autoWalkOrder() {
            return List.of();
        }
    }
}
