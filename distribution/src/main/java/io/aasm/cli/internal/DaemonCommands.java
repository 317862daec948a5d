package io.aasm.cli.internal;

import io.aasm.cli.internal.wire.DaemonStatus;
import io.aasm.cli.internal.wire.Frames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code aasm daemon start|stop|status|run}: the resident kernel (docs/resident.md). {@code run} is the
 * kernel itself: the boot jar boots a framework for it when it sees exactly {@code daemon run}, so the
 * command here only has its help and refuses to run inside another face.
 */
final class DaemonCommands {
    /** {@code daemon status} when no kernel runs (the LSB "program is not running" status). */
    static final int NOT_RUNNING = ExitCodes.NOT_RUNNING;
    static final String STATUS_SCHEMA = "aasm.daemon.status/1";

    private DaemonCommands() {
    }

    static CommandLine tree(Invocation inv) {
        return new CommandLine(new Group()).addSubcommand(new Start(inv)).addSubcommand(new Stop(inv))
                .addSubcommand(new Status(inv)).addSubcommand(new Run(inv));
    }

    @Command(name = "daemon", mixinStandardHelpOptions = true, commandListHeading = "Commands:%n",
            description = {"The resident kernel: `aasm run` in tens of milliseconds.",
                "One Felix kernel kept running, serving `aasm run` from bin/aasm-client over a Unix socket in"
                    + " $XDG_RUNTIME_DIR (else /run/user/UID, else $XDG_CACHE_HOME/aasm/run; see docs/resident.md)."})
    static final class Group extends Commands.Group {
    }

    /** The socket this face's boot jar resolved (XDG_RUNTIME_DIR, /run/user/UID or $XDG_CACHE_HOME/aasm/run). */
    static Path socket(Invocation inv) {
        return inv.io().residentSocket().orElseThrow(() -> new CliFailure(ExitCodes.FAILED_BEFORE_START,
                "this aasm was not started by bin/aasm and knows no resident kernel socket"));
    }

    static Optional<String> ask(Path sock, byte kind) {
        try {
            return DaemonClient.ask(sock, kind);
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.FAILED_BEFORE_START, "daemon: " + e.getMessage());
        }
    }

    @Command(name = "start", mixinStandardHelpOptions = true,
            description = {"Starts the resident kernel in the background.", "Own session; log in aasm-daemon.log next to"
                    + " the socket. Waits until it answers. Exit 0 when it started or already runs."})
    static final class Start implements Callable<Integer> {
        private final Invocation inv;

        Start(Invocation inv) {
            this.inv = inv;
        }

        @Override
        public Integer call() {
            Path sock = socket(inv);
            Optional<String> running = ask(sock, Frames.STATUS);
            if (running.isPresent()) {
                inv.io().out().println("aasm daemon: already " + running.get());
                return ExitCodes.OK;
            }
            return DaemonStart.start(sock, inv.io());
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = {"Stops the resident kernel.", "Asks it to stop; it removes its socket. Exit 0, also when none"
                    + " runs."})
    static final class Stop implements Callable<Integer> {
        private final Invocation inv;

        Stop(Invocation inv) {
            this.inv = inv;
        }

        @Override
        public Integer call() throws InterruptedException {
            Path sock = socket(inv);
            Optional<String> said = ask(sock, Frames.STOP);
            if (said.isEmpty()) {
                inv.io().out().println("aasm daemon: not running (no kernel at " + sock + ")");
                return ExitCodes.OK;
            }
            for (int i = 0; i < 200 && Files.exists(sock); i++) {
                Thread.sleep(50);
            }
            inv.io().out().println(said.get().replace("aasm: stopping", "aasm daemon: stopped"));
            return ExitCodes.OK;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = {"Whether a resident kernel runs.", "Prints `running pid=… uptime=…s connections=… socket=…`"
                    + " or `not running`. Exit 0 running, 3 not running."})
    static final class Status implements Callable<Integer> {
        private final Invocation inv;

        @Option(names = "--json", description = "One JSON document on stdout (schema aasm.daemon.status/1,"
                + " docs/schema/daemon-status.schema.json); the exit status is the same.")
        boolean json;

        Status(Invocation inv) {
            this.inv = inv;
        }

        @Override
        public Integer call() {
            Path sock = socket(inv);
            Optional<String> answer = ask(sock, Frames.STATUS);
            if (json) {
                inv.io().out().print(Json.render(document(sock, answer.flatMap(DaemonStatus::parse))));
            } else {
                inv.io().out().println(answer.map(v -> "aasm daemon: " + v)
                        .orElse("aasm daemon: not running (no kernel at " + sock + ")"));
            }
            return answer.isPresent() ? ExitCodes.OK : NOT_RUNNING;
        }

        static Map<String, Object> document(Path sock, Optional<DaemonStatus> s) {
            Map<String, Object> doc = Json.object(STATUS_SCHEMA);
            doc.put("running", s.isPresent());
            doc.put("socket", sock.toString());
            doc.put("pid", s.map(DaemonStatus::pid).orElse(null));
            doc.put("uptime_seconds", s.map(DaemonStatus::uptimeSeconds).orElse(null));
            doc.put("connections", s.map(DaemonStatus::connections).orElse(null));
            return doc;
        }
    }

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = {"The resident kernel in the foreground.", "Runs until `aasm daemon stop` or"
                    + " SIGTERM/SIGINT/SIGHUP (what `daemon start` and the systemd unit lib/systemd/user/aasm.service"
                    + " run). Exit 0 after a stop, 125 when it cannot listen (another kernel holds the socket's lock)."})
    static final class Run implements Callable<Integer> {
        private final Invocation inv;

        Run(Invocation inv) {
            this.inv = inv;
        }

        @Override
        public Integer call() {
            // bin/aasm boots a framework of its own for exactly `daemon run`: reaching this means another face
            inv.io().err().println("aasm: `daemon run` is the resident kernel itself and starts only as"
                    + " `bin/aasm daemon run` (from a " + inv.io().callerFace().name().toLowerCase(Locale.ROOT)
                    + " command it would be a kernel inside this one); use `daemon start`");
            return ExitCodes.USAGE;
        }
    }
}
