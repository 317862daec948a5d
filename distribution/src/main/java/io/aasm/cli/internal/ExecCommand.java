package io.aasm.cli.internal;

import io.aasm.ports.policy.IsolationClass;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IFactory;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

/** {@code aasm run exec}: parses, then hands over to {@link ExecRun}. */
@Command(name = "exec", mixinStandardHelpOptions = true, sortOptions = false,
        headerHeading = "%n", synopsisHeading = "Usage: ",
        customSynopsis = "aasm run exec [--isolation none|auto|process|container|vm] [--isolation-backend ID]"
                + "%n                     [--policy FILE] [--dry-run] [--report FORMAT] [--report-file PATH] [--workdir DIR]"
                + "%n                     [--agent-id ID] [--no-proxy] [--verify]"
                + "%n                     -- PROGRAM [ARGS...]",
        description = {
            "%nRuns PROGRAM under the isolation the policy and flags ask for. The program's stdin, stdout and",
            "stderr are your own; its exit status is aasm's exit status. SIGINT/SIGTERM/SIGHUP sent to aasm",
            "are forwarded to the program's tree. A boundary that cannot be established is a refusal (exit",
            "125, nothing runs); there is never a fallback to an unconfined launch.",
            "Without --policy the distribution's conf/default-policy.yaml applies.%n"},
        optionListHeading = "Options:%n")
public final class ExecCommand implements Callable<Integer> {
    /** The call being served; rebound per call when the model is reused ({@link RunBranch}). */
    private Invocation inv;

    @Option(names = "--isolation", paramLabel = "CLASS", converter = IsolationConverter.class,
            description = "Isolation class: none (no boundary, reported as such), auto (first capable backend"
                    + " of the auto walk), process (a shared-host-kernel backend), container (a container engine"
                    + " backend) or vm (a backend with a kernel of its own). Default: the policy's isolation:,"
                    + " else none.")
    IsolationClass isolation;

    @Option(names = "--isolation-backend", paramLabel = "ID",
            description = "Use only this backend (see `aasm backends`); needs an --isolation other than none.")
    String backend;

    @Option(names = "--policy", paramLabel = "FILE", description = "Policy file (YAML). Default: conf/default-policy.yaml.")
    String policy;

    @Option(names = "--dry-run", description = "Preview: decide and print the plan and reports; execute nothing.")
    boolean dryRun;

    @Option(names = "--report", paramLabel = "FORMAT", converter = ReportFormatConverter.class,
            completionCandidates = ReportFormats.class,
            description = "Format of the report written to --report-file, one of the report renderers installed"
                    + " here: ${COMPLETION-CANDIDATES} (default: " + ReportFormats.DEFAULT + ").")
    String report = ReportFormats.DEFAULT;

    @Option(names = "--report-file", paramLabel = "PATH",
            description = "Write the post-run report (pre-launch report on refusal or dry run) to PATH;"
                    + " `-` writes it to stderr (stdout belongs to the program).")
    String reportFile;

    @Option(names = "--workdir", paramLabel = "DIR", description = "Working directory of the program (default: the current one).")
    String workdir;

    @Option(names = "--agent-id", paramLabel = "ID", description = "Agent identity recorded in the report (asserted, not verified).")
    String agentId;

    @Option(names = "--no-proxy", description = "Switch transport mediation off for this launch: the program's traffic"
            + " does not go through the supervisor's proxy (host-name egress grants then need a backend that enforces"
            + " them itself). The boundary is unchanged. Independent of --isolation; see the dry run's protection"
            + " section.")
    boolean noProxy;

    @Option(names = "--verify", description = "Run every canary the chosen backend has before the program, also those"
            + " whose cost here is over the per-launch budget (the VM boundary's, under emulation): each prevented"
            + " domain is then tried and its claim rises to denied_before_execution only when the attempt was refused."
            + " Backends whose canaries are within the budget run them in any case.")
    boolean verify;

    @Parameters(index = "0", paramLabel = "PROGRAM", description = "Program to run (a path, or a name searched on PATH).")
    String program;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "Arguments passed to the program unchanged.")
    List<String> args = new ArrayList<>();

    ExecCommand(Invocation inv) {
        this.inv = inv;
    }

    /** The call the next parse serves; {@code null} after it, so no call's streams outlive it here. */
    void bind(Invocation call) {
        this.inv = call;
    }

    @Override
    public Integer call() {
        if (inv == null) {
            throw new IllegalStateException("aasm run exec executed outside a call");
        }
        return new ExecRun(inv, this).run();
    }

    /** Accepts exactly the wire tokens, so a typo is a usage error naming the choices. */
    public static final class IsolationConverter implements ITypeConverter<IsolationClass> {
        @Override
        public IsolationClass convert(String value) {
            return IsolationClass.fromToken(value).orElseThrow(() ->
                    new TypeConversionException("'" + value + "' is not an isolation class; use none, auto, process, container or vm"));
        }
    }

    /**
     * Picocli's factory for this command: the {@code --report} choices and their check are built on the
     * renderers installed in the framework; everything else comes from picocli's default factory.
     */
    static IFactory factory(ReportFormats formats) {
        IFactory fallback = CommandLine.defaultFactory();
        return new IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                if (cls == ReportFormatConverter.class) {
                    return cls.cast(new ReportFormatConverter(formats));
                }
                return cls == ReportFormats.class ? cls.cast(formats) : fallback.create(cls);
            }
        };
    }

    /** Accepts exactly the installed format names, so a typo is a usage error naming the choices. */
    public static final class ReportFormatConverter implements ITypeConverter<String> {
        private final ReportFormats formats;

        ReportFormatConverter(ReportFormats formats) {
            this.formats = formats;
        }

        @Override
        public String convert(String value) {
            if (!formats.has(value)) {
                throw new TypeConversionException("'" + value + "' is not an installed report format; "
                        + formats.describe());
            }
            return value;
        }
    }
}
