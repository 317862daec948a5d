package io.aasm.cli.internal;

import io.aasm.ports.kernel.BackendStatus;
import io.aasm.ports.kernel.IsolationKernel;
import io.aasm.ports.kernel.PolicyCheck;
import io.aasm.ports.policy.PolicyProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** The small commands: each parses, asks the kernel, prints. */
final class Commands {
    private Commands() {
    }

    /** A command group without its subcommand is a usage error. */
    abstract static class Group implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().getErr().println("aasm: missing subcommand");
            spec.commandLine().usage(spec.commandLine().getErr());
            return ExitCodes.USAGE;
        }
    }

    @Command(name = "aasm", mixinStandardHelpOptions = true,
            description = "%nGoverned launches for AI agents: run a program under an execution-isolation boundary"
                    + " negotiated from a policy, or refuse; and report requested vs achieved control per domain.%n",
            commandListHeading = "Commands:%n")
    static final class Top extends Group {
    }

    @Command(name = "run", mixinStandardHelpOptions = true, description = "Run a program (see `aasm run exec --help`).",
            commandListHeading = "Commands:%n")
    static final class Run extends Group {
    }

    @Command(name = "policy", mixinStandardHelpOptions = true, description = "Policy tools.",
            commandListHeading = "Commands:%n")
    static final class Policy extends Group {
    }

    @Command(name = "backends", mixinStandardHelpOptions = true,
            description = "Lists every installed backend: identity, provenance, availability and its"
                    + " per-domain capability report on this host (cached probes; see `aasm probe`).")
    static final class Backends implements Callable<Integer> {
        private final Invocation inv;

        @Option(names = "--json", description = "One JSON document on stdout (schema aasm.backends/1,"
                + " docs/schema/backends.schema.json) instead of the text view.")
        boolean json;

        Backends(Invocation inv) {
            this.inv = inv;
        }

        @Override
        public Integer call() {
            IsolationKernel k = inv.kernel();
            List<BackendStatus> all = k.backends();
            if (json) {
                Map<String, Object> doc = Json.object(BackendJson.BACKENDS_SCHEMA);
                doc.put("auto_walk", k.autoWalkOrder());
                doc.put("backends", all.stream().map(BackendJson::backend).toList());
                inv.io().out().print(Json.render(doc));
                return ExitCodes.OK;
            }
            inv.io().out().println("auto walk order: " + String.join(", ", k.autoWalkOrder())
                    + " (then other installed backends by ranking, then id)");
            inv.io().out().println("installed backends: " + all.size());
            all.forEach(b -> BackendView.print(inv.io().out(), b));
            return ExitCodes.OK;
        }
    }

    @Command(name = "probe", mixinStandardHelpOptions = true,
            description = "Runs (with --refresh) or reads the cached capability probes of one or every backend."
                    + " Results are cached per host, kernel and backend version, so a launch does not pay for probing.")
    static final class Probe implements Callable<Integer> {
        private final Invocation inv;

        @Option(names = "--backend", paramLabel = "ID", description = "Only this backend.")
        String backend;

        @Option(names = "--refresh", description = "Re-run the probes and replace the cache.")
        boolean refresh;

        @Option(names = "--json", description = "One JSON document on stdout (schema aasm.probe/1,"
                + " docs/schema/probe.schema.json) instead of the text view.")
        boolean json;

        Probe(Invocation inv) {
            this.inv = inv;
        }

        @Override
        public Integer call() {
            IsolationKernel k = inv.kernel();
            List<String> ids = backend != null ? List.of(backend) : k.backends().stream().map(BackendStatus::id).toList();
            List<BackendStatus> probed = new ArrayList<>();
            for (String id : ids) {
                var status = k.probe(id, refresh);
                if (status.isEmpty()) {
                    inv.io().err().println("aasm: no backend `" + id + "` is installed; installed: "
                            + String.join(", ", k.backends().stream().map(BackendStatus::id).toList()));
                    return ExitCodes.FAILED_BEFORE_START;
                }
                probed.add(status.get());
            }
            if (json) {
                Map<String, Object> doc = Json.object(BackendJson.PROBE_SCHEMA);
                doc.put("refreshed", refresh);
                doc.put("backends", probed.stream().map(BackendJson::backend).toList());
                inv.io().out().print(Json.render(doc));
            } else {
                probed.forEach(s -> BackendView.print(inv.io().out(), s));
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Validates a policy file and shows how it lowers to per-domain requirements.")
    static final class PolicyCheckCmd implements Callable<Integer> {
        private final Invocation inv;

        @Parameters(index = "0", paramLabel = "FILE", description = "The policy file.")
        String file;

        @Option(names = "--json", description = "One JSON document on stdout, valid or not (schema"
                + " aasm.policy.check/1, docs/schema/policy-check.schema.json); the exit status is the same.")
        boolean json;

        PolicyCheckCmd(Invocation inv) {
            this.inv = inv;
        }

        @Override
        public Integer call() {
            PolicyCheck check = inv.kernel().checkPolicy(inv.io().resolve(file).toString());
            if (json) {
                inv.io().out().print(PolicyCheckJson.render(check));
                return check.lowering().isPresent() ? ExitCodes.OK : ExitCodes.POLICY_INVALID;
            }
            if (check.lowering().isPresent()) {
                LoweringView.print(inv.io().out(), check.lowering().get());
                return ExitCodes.OK;
            }
            inv.io().err().println("aasm: the policy " + check.origin() + " is invalid:");
            for (PolicyProblem p : check.problems()) {
                inv.io().err().println("  " + p.render());
            }
            return ExitCodes.POLICY_INVALID;
        }
    }

    @Command(name = "version", mixinStandardHelpOptions = true, description = "Prints the aasm, Java and OS versions.")
    static final class Version implements Callable<Integer> {
        private final Invocation inv;

        Version(Invocation inv) {
            this.inv = inv;
        }

        @Override
        public Integer call() {
            inv.io().out().println("aasm " + inv.io().version());
            inv.io().out().println("java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")");
            inv.io().out().println("os " + System.getProperty("os.name") + " " + System.getProperty("os.version")
                    + " " + System.getProperty("os.arch"));
            inv.io().home().ifPresent(h -> inv.io().out().println("home " + h));
            if (!inv.io().protectedPaths().isEmpty()) {
                // what no launch may write (docs/cli.md, aasm.protected.paths)
                inv.io().out().println("protected " + String.join(":", inv.io().protectedPaths()));
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "shell", mixinStandardHelpOptions = true,
            description = "Starts the interactive Felix Gogo shell with the aasm:* commands (aasm:run, aasm:backends,"
                    + " aasm:probe, aasm:policy, aasm:version, aasm:daemon, aasm:conformance, aasm:audit, aasm:status) and hot"
                    + " deploy from deploy/. Only as `bin/aasm shell`.")
    static final class Shell implements Callable<Integer> {
        private final Invocation inv;

        Shell(Invocation inv) {
            this.inv = inv;
        }

        @Override
        public Integer call() {
            inv.io().err().println("aasm: `shell` takes no arguments and is started by bin/aasm itself (`aasm shell`);"
                    + " inside the shell it is already running");
            return ExitCodes.USAGE;
        }
    }
}
