package io.aasm.cli.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.kernel.LaunchSession;
import io.aasm.ports.report.IsolationReport;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;

/**
 * The resident path's window changes before the forwarder exists: the program already runs (its launcher
 * copied the caller's size when it made the terminal), so a change then must still reach it once the
 * forwarder is installed. TerminalIT saw ten answers of the old size over 20 s at load 44 when it did not.
 */
class EarlyWindowChangeTest {
    private final List<Integer> delivered = new CopyOnWriteArrayList<>();
    private final AtomicReference<IntConsumer> onSignal = new AtomicReference<>();

    @Test
    void aWindowChangeBeforeTheForwarderIsReplayedToTheProgram() {
        EarlyWindowChange.installIn(onSignal).accept(SignalForwarder.SIGWINCH);
        SignalForwarder.install(io(), session());
        assertEquals(List.of(SignalForwarder.SIGWINCH), delivered, "the change that came first reached the program");
    }

    @Test
    void withoutAChangeNothingIsReplayed() {
        // Control: same hand-off, no window change and an ending signal that is not the forwarder's to replay.
        EarlyWindowChange early = EarlyWindowChange.installIn(onSignal);
        early.accept(2);
        SignalForwarder.install(io(), session());
        assertEquals(List.of(), delivered, "nothing to copy: the launcher's copy at start is current");
    }

    @Test
    void aChangeThatLandsOnTheOldHolderAfterTheSwapIsHandedOn() {
        // The relay thread read the holder just before the forwarder replaced it, and delivers to it after.
        EarlyWindowChange early = EarlyWindowChange.installIn(onSignal);
        SignalForwarder.install(io(), session());
        early.accept(SignalForwarder.SIGWINCH);
        assertEquals(List.of(SignalForwarder.SIGWINCH), delivered);
    }

    private CliIo io() {
        CommandInvocation call = new CommandInvocation(List.of("run"), "/", Map.of(),
                new ByteArrayInputStream(new byte[0]), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new Stdio.Inherit(), new CommandInvocation.Caller(CommandInvocation.Face.RESIDENT, 1, 0),
                new AtomicInteger(), onSignal, List.of());
        return new CliIo(call, new FaceSettings(Optional.of(Path.of("/home")), "test", List.of(), 10,
                Optional.empty()));
    }

    /** Records what the forwarder hands the running launch; the hand-off is what is under test, not a backend. */
    private LaunchSession session() {
        return new LaunchSession() {
            @Override
            public ExitDisposition await() {
                return new ExitDisposition.Exited(0);
            }

            @Override
            public boolean terminate(TerminationRequest request) {
                return true;
            }

            @Override
            public boolean signal(int signal) {
                delivered.add(signal);
                return true;
            }

            @Override
            public IsolationReport postRunReport() {
                throw new UnsupportedOperationException();
            }
        };
    }
}
