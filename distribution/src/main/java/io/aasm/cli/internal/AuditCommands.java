package io.aasm.cli.internal;

import io.aasm.ports.audit.AuditCheck;
import io.aasm.ports.report.UntrustedText;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code aasm audit tail|show|verify}: the per-user audit log (one hash-chained JSON record per launch,
 * docs/audit.md). Records are printed as stored, one JSON document per line, so they can be piped to
 * {@code jq} and checked by hand against the chain.
 */
final class AuditCommands {
    private AuditCommands() {
    }

    static CommandLine tree(Invocation inv) {
        return new CommandLine(new Group()).addSubcommand(new Tail(inv)).addSubcommand(new Show(inv))
                .addSubcommand(new Verify(inv));
    }

    @Command(name = "audit", mixinStandardHelpOptions = true, commandListHeading = "Commands:%n",
            description = {"The audit log: one tamper-evident record per launch.",
                "Records hold digests and verdicts (program, argument and policy digests, backend, requested and"
                    + " achieved per domain, outcome), never environment values or file contents. The log is"
                    + " $XDG_STATE_HOME/aasm/audit/audit.jsonl (else ~/.local/state/aasm/audit), out of every"
                    + " launch's reach."})
    static final class Group extends Commands.Group {
    }

    @Command(name = "tail", mixinStandardHelpOptions = true,
            description = "Prints the latest records, oldest first, one JSON document per line.")
    static final class Tail implements Callable<Integer> {
        private final Invocation inv;

        @Option(names = {"-n", "--lines"}, paramLabel = "N", defaultValue = "10",
                description = "How many records (default: ${DEFAULT-VALUE}).")
        int lines;

        Tail(Invocation inv) {
            this.inv = inv;
        }

        @Override
        public Integer call() {
            if (lines < 0) {
                throw new CliFailure(ExitCodes.USAGE, "audit tail: -n must be 0 or more, not " + lines);
            }
            List<String> records = read(() -> inv.auditLog().tail(lines));
            records.forEach(inv.io().out()::println);
            return ExitCodes.OK;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "Prints the record of one launch (its id is in the report and in `audit tail`).")
    static final class Show implements Callable<Integer> {
        private final Invocation inv;

        @Parameters(paramLabel = "LAUNCH", description = "The launch id.")
        String launch;

        Show(Invocation inv) {
            this.inv = inv;
        }

        @Override
        public Integer call() {
            Optional<String> record = read(() -> inv.auditLog().show(launch));
            if (record.isEmpty()) {
                throw new CliFailure(ExitCodes.POLICY_INVALID, "audit show: no record of launch "
                        + UntrustedText.clean(launch) + " in the audit log");
            }
            inv.io().out().println(record.get());
            return ExitCodes.OK;
        }
    }

    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = {"Checks every record against the chain.",
                "Exit 0: intact. Exit 74: a record was edited, removed, inserted or reordered (each problem is"
                    + " named by line). A tail torn by a crash is set aside on the next append, never counted."})
    static final class Verify implements Callable<Integer> {
        private final Invocation inv;

        Verify(Invocation inv) {
            this.inv = inv;
        }

        @Override
        public Integer call() {
            AuditCheck check = read(() -> inv.auditLog().verify());
            if (check.intact()) {
                inv.io().out().println("audit log intact: " + check.records() + " record(s)");
                return ExitCodes.OK;
            }
            inv.io().out().println("audit log NOT intact: " + check.records() + " record(s), "
                    + check.problems().size() + " problem(s)");
            check.problems().forEach(p -> inv.io().out().println("  " + p));
            return ExitCodes.REPORT_NOT_WRITTEN;
        }
    }

    private interface LogRead<T> {
        T read() throws IOException;
    }

    private static <T> T read(LogRead<T> r) {
        try {
            return r.read();
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.FAILED_BEFORE_START, "cannot read the audit log: " + e.getMessage());
        }
    }
}
