package io.aasm.cli.internal;

import java.io.PrintWriter;
import picocli.CommandLine;

/** Builds the picocli command tree shared by both faces (headless CLI and Gogo) and runs one invocation. */
final class AasmCli {
    private AasmCli() {
    }

    static int execute(String[] args, Invocation inv) {
        CommandLine cl = tree(inv);
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
        return cl.execute(args);
    }

    static CommandLine tree(Invocation inv) {
        CommandLine cl = new CommandLine(new Commands.Top())
                .addSubcommand(new CommandLine(new Commands.Run()).addSubcommand(
                        new CommandLine(new ExecCommand(inv), ExecCommand.factory(inv.reportFormats()))))
                .addSubcommand(new Commands.Backends(inv))
                .addSubcommand(new Commands.Probe(inv))
                .addSubcommand(new CommandLine(new Commands.Policy()).addSubcommand(new Commands.PolicyCheckCmd(inv)))
                .addSubcommand(new Commands.Version(inv))
                .addSubcommand(new Commands.Shell(inv));
        cl.getSubcommands().get("run").getSubcommands().get("exec").setStopAtPositional(true);
        decorate(cl, inv.io().version());
        return cl;
    }

    private static void decorate(CommandLine cl, String version) {
        cl.getCommandSpec().version("aasm " + version);
        cl.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(ExitCodes.table());
        cl.getSubcommands().values().forEach(sub -> decorate(sub, version));
    }
}
