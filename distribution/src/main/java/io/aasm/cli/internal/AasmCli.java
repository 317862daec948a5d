package io.aasm.cli.internal;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine;

/**
 * The one command tree of both faces (headless CLI, resident kernel, Gogo) and the running of one
 * invocation. Every top-level command is listed once, below; the tree is built per call (picocli's
 * model holds the parsed values), and only the branch the first argument names, so the resident
 * kernel's run requests do not pay for building the other commands. The {@code run} branch, which
 * every launch parses, is built once per thread instead ({@link RunBranch}).
 */
final class AasmCli {
    private static final Map<String, Function<Invocation, CommandLine>> BRANCHES = new LinkedHashMap<>();

    static {
        BRANCHES.put("run", inv -> run(inv, new ExecCommand(inv)));
        BRANCHES.put("backends", inv -> new CommandLine(new Commands.Backends(inv)));
        BRANCHES.put("probe", inv -> new CommandLine(new Commands.Probe(inv)));
        BRANCHES.put("policy", inv -> new CommandLine(new Commands.Policy())
                .addSubcommand(new Commands.PolicyCheckCmd(inv)));
        BRANCHES.put("version", inv -> new CommandLine(new Commands.Version(inv)));
        BRANCHES.put("shell", inv -> new CommandLine(new Commands.Shell(inv)));
        BRANCHES.put("daemon", DaemonCommands::tree);
        BRANCHES.put("conformance", inv -> new CommandLine(new ConformanceCommand(inv)));
        BRANCHES.put("audit", AuditCommands::tree);
    }

    private AasmCli() {
    }

    static int execute(Invocation inv) {
        List<String> args = inv.io().call().args();
        if (!args.isEmpty() && args.get(0).equals("run")) {
            CommandLine cl = RunBranch.acquire(inv);
            try {
                return execute(cl, inv, args);
            } finally {
                RunBranch.release(cl);
            }
        }
        return execute(args.isEmpty() || !BRANCHES.containsKey(args.get(0)) ? tree(inv) : tree(inv, args.get(0)),
                inv, args);
    }

    private static int execute(CommandLine cl, Invocation inv, List<String> args) {
        cl.setOut(new PrintWriter(inv.io().out(), true));
        cl.setErr(new PrintWriter(inv.io().err(), true));
        cl.setParameterExceptionHandler((ex, a) -> {
            CommandLine failed = ex.getCommandLine();
            failed.getErr().println("aasm: " + ex.getMessage());
            failed.getErr().println("Try '" + failed.getCommandSpec().qualifiedName() + " --help' for more information.");
            return ExitCodes.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            if (ex instanceof CliFailure f) {
                c.getErr().println("aasm: " + f.getMessage());
                return f.status();
            }
            c.getErr().println("aasm: internal error: " + ex);
            return ExitCodes.FAILED_BEFORE_START;
        });
        return cl.execute(args.toArray(new String[0]));
    }

    /** The whole tree: help, usage errors, completion and man pages. */
    static CommandLine tree(Invocation inv) {
        CommandLine top = new CommandLine(new Commands.Top());
        BRANCHES.values().forEach(b -> top.addSubcommand(b.apply(inv)));
        finish(top, inv.io().version());
        return top;
    }

    /** The top command with one branch: what a command whose name is known needs. */
    static CommandLine tree(Invocation inv, String branch) {
        CommandLine top = new CommandLine(new Commands.Top()).addSubcommand(BRANCHES.get(branch).apply(inv));
        finish(top, inv.io().version());
        return top;
    }

    /** The top command with the {@code run} branch around {@code exec}, for {@link RunBranch}. */
    static CommandLine tree(Invocation inv, String branch, ExecCommand exec) {
        CommandLine top = new CommandLine(new Commands.Top()).addSubcommand(run(inv, exec));
        finish(top, inv.io().version());
        return top;
    }

    private static CommandLine run(Invocation inv, ExecCommand exec) {
        return new CommandLine(new Commands.Run()).addSubcommand(
                new CommandLine(exec, ExecCommand.factory(inv.reportFormats())));
    }

    /** The names of the top-level commands, in help order. */
    static List<String> commands() {
        return List.copyOf(BRANCHES.keySet());
    }

    private static void finish(CommandLine top, String version) {
        decorate(top, version);
        // set last: picocli applies parser settings to the subcommands present at the time
        CommandLine run = top.getSubcommands().get("run");
        if (run != null) {
            run.getSubcommands().get("exec").setStopAtPositional(true);
        }
    }

    private static void decorate(CommandLine cl, String version) {
        cl.getCommandSpec().version("aasm " + version);
        cl.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(ExitCodes.table());
        cl.getSubcommands().values().forEach(sub -> decorate(sub, version));
    }
}
