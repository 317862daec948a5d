package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Outside;
import io.aasm.conformance.internal.fixture.Terminal;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The caller's terminal and session. The caller sits at a real pseudo-terminal (the suite's), which is
 * the launch's stdin, stdout and stderr. No policy statement grants the caller's terminal, so the
 * control removes the ipc statement; a backend that refuses keystroke injection in every launch is
 * recognised by the action's own EPERM (judged against {@code none} in the same run).
 */
final class TerminalScenarios {
    private TerminalScenarios() {
    }

    private static final String IPC = "ipc: {allow: []}";
    private static final String REMOVED = "ipc removed (no statement grants the caller's terminal or session)";

    static List<Scenario> all() {
        return List.of(injection(), session());
    }

    private static Optional<Staging.CannotHost> terminal(Bench b, Terminal[] holder) throws IOException {
        if (b.needsActor().isPresent()) {
            return b.needsActor();
        }
        Optional<Terminal> t = Terminal.open(b.ws());
        if (t.isEmpty()) {
            return Optional.of(new Staging.CannotHost("no pseudo-terminal: the helper needs /usr/bin/python3"));
        }
        holder[0] = t.get();
        return Optional.empty();
    }

    /**
     * TIOCSTI pushes a command line into the terminal's input queue (on stdin, else on the caller's terminal
     * reopened by its path); the caller's interactive shell, run on the terminal after the launch, executes
     * it (outside every boundary).
     */
    private static Scenario injection() {
        String name = "surr-terminal-tiocsti-injection";
        return new Scenario(name, CapabilityDomain.IPC,
                "inject a command line into the caller's terminal with ioctl(TIOCSTI); the caller's shell runs it later",
                b -> {
                    String legacy = Trees.read(Path.of("/proc/sys/dev/tty/legacy_tiocsti")).strip();
                    if (legacy.equals("0") && !Outside.holdsCapabilities()) {
                        return new Staging.CannotHost("dev.tty.legacy_tiocsti is 0: this kernel refuses TIOCSTI to"
                                + " every program without CAP_SYS_ADMIN, confined or not");
                    }
                    Terminal[] t = new Terminal[1];
                    Optional<Staging.CannotHost> no = terminal(b, t);
                    if (no.isPresent()) {
                        return no.get();
                    }
                    Path injected = b.ws().resolve("injected");
                    String marker = "typed-" + b.tools().canary();
                    Staged.Observation effect = () -> {
                        t[0].runShell();
                        return Trees.read(injected).contains(marker)
                                ? Effect.happened("the caller's shell ran the injected line: " + injected + " holds the"
                                        + " marker")
                                : Effect.absent("the caller's shell ran nothing injected (" + injected + " absent)");
                    };
                    Staged s = new Staged(b.policy(name).section(IPC).text(), b.policy(name).text(), REMOVED,
                            b.actor() + " tiocsti 'echo " + marker + " > " + injected + "' " + t[0].slave(), effect,
                            () -> {
                                b.clearOut();
                                Files.deleteIfExists(injected);
                            }, t[0]::close, Optional.of("tiocsti: errno=EPERM"));
                    return new Staging.Ready(s.withStdio(t[0].stdio()));
                });
    }

    /**
     * Whether the program runs in the caller's session (which is what lets it use the caller's
     * controlling terminal and signal the caller's foreground job). The action records its own session
     * id and pid namespace; that record is the proof that the action ran.
     */
    private static Scenario session() {
        String name = "surr-terminal-shared-session";
        return new Scenario(name, CapabilityDomain.IPC, "run in the caller's session (and so on its controlling terminal)",
                b -> {
                    Terminal[] t = new Terminal[1];
                    Optional<Staging.CannotHost> no = terminal(b, t);
                    if (no.isPresent()) {
                        return no.get();
                    }
                    Path record = b.out().resolve("session");
                    String callerSid = Trees.read(Path.of("/proc/self/stat")).replaceAll("^.*\\) ", "").split(" ")[3];
                    String callerNs = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
                    Staged.Observation effect = () -> {
                        String got = Trees.read(record).strip();
                        if (!got.matches("sid=-?\\d+ pidns=\\S+")) {
                            return Effect.absent("the program recorded no session (" + got + ")");
                        }
                        String sid = got.replaceAll("^sid=(-?\\d+) .*", "$1");
                        String ns = got.replaceAll("^.* pidns=", "");
                        // 0: the session's leader is outside the program's pid namespace, so the session is not its own
                        boolean shared = sid.equals("0") || ns.equals(callerNs) && sid.equals(callerSid);
                        String seen = "the program's " + got + ", the caller's sid=" + callerSid + " pidns=" + callerNs;
                        return shared ? Effect.happened("the program runs in the caller's session: " + seen)
                                : Effect.absentAfterAction("the program leads a session of its own: " + seen);
                    };
                    Staged s = new Staged(b.policy(name).section(IPC).text(), b.policy(name).text(), REMOVED,
                            b.actor() + " session " + record, effect, b::clearOut, t[0]::close, Optional.empty());
                    return new Staging.Ready(s.withStdio(t[0].stdio()));
                });
    }
}
