package io.aasm.backend.container.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.backend.TerminationRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The program's streams and ending, as with aasm-native: stdin copied in up to its end of file, stdout and
 * stderr kept apart, the exit status, a signal death, a program that cannot be executed, termination.
 * Each stream is a descriptor of the test's own, as a resident kernel's client hands over.
 */
class StdioAndExitTest {
    @TempDir
    Path t;

    private ExecutionSpec spec(String script, Stdio stdio) {
        return new ExecutionSpec("/bin/sh", List.of("-c", script), t.toString(), IdentityRef.anonymous(),
                List.of(Harness.read(t.toString()), Harness.write(t.resolve("w").toString())), Map.of("PATH", "/usr/bin:/bin"),
                CredentialPosture.none(), stdio);
    }

    private ExitDisposition run(String script, Path in, Path out, Path err) throws Exception {
        int i = Fds.readFrom(in);
        int o = Fds.writeTo(out);
        int e = Fds.writeTo(err);
        try {
            return Harness.shared().run(spec(script, new Stdio.Descriptors(i, o, e)));
        } finally {
            Fds.C.close(i);
            Fds.C.close(o);
            Fds.C.close(e);
        }
    }

    @Test
    void stdinReachesTheProgramUpToItsEndOfFileAndTheOutputsStayApart() throws Exception {
        Files.createDirectories(t.resolve("w"));
        Path in = Files.write(t.resolve("in"), new byte[1000]);
        ExitDisposition d = run("wc -c; echo to-err >&2; exit 7", in, t.resolve("out"), t.resolve("err"));
        assertEquals(new ExitDisposition.Exited(7), d);
        assertEquals("1000", Files.readString(t.resolve("out")).strip(), "wc saw end of file after 1000 bytes");
        assertEquals("to-err", Files.readString(t.resolve("err")).strip());
    }

    @Test
    void endOfFileOnAPipeWrittenWhileTheProgramRunsReachesIt() throws Exception {
        Files.createDirectories(t.resolve("w"));
        int[] p = new int[2];
        assertEquals(0, Fds.C.pipe2(p, Fds.O_CLOEXEC));
        int o = Fds.writeTo(t.resolve("out"));
        try {
            Execution x = Harness.shared().start(spec("cat", new Stdio.Descriptors(p[0], o, o)));
            byte[] line = "typed later\n".getBytes();
            Thread.sleep(300);
            assertEquals(line.length, Fds.C.write(p[1], line, line.length));
            Fds.C.close(p[1]);
            assertEquals(new ExitDisposition.Exited(0), x.await(), "cat ended at end of file");
            assertEquals("typed later", Files.readString(t.resolve("out")).strip());
        } finally {
            Fds.C.close(p[0]);
            Fds.C.close(o);
        }
    }

    @Test
    void aSignalDeathIsReportedAsTheSignal() throws Exception {
        Files.createDirectories(t.resolve("w"));
        Path empty = Files.write(t.resolve("in"), new byte[0]);
        assertEquals(new ExitDisposition.Signalled(9), run("kill -9 $$", empty, t.resolve("o"), t.resolve("e")));
    }

    @Test
    void aProgramThatIsMissingOrNotExecutableDoesNotStart() throws Exception {
        Files.createDirectories(t.resolve("w"));
        Path notExec = Files.writeString(t.resolve("w/data"), "not a program");
        Harness h = Harness.shared();
        ExecutionSpec missing = new ExecutionSpec(t.resolve("nope").toString(), List.of(), t.toString(),
                IdentityRef.anonymous(), List.of(Harness.read(t.toString())), Map.of(), CredentialPosture.none(),
                new Stdio.Inherit());
        ExitDisposition d = h.run(missing);
        assertInstanceOf(ExitDisposition.NotStarted.class, d);
        assertEquals(LaunchFailureKind.NOT_FOUND, ((ExitDisposition.NotStarted) d).kind());
        ExecutionSpec data = new ExecutionSpec(notExec.toString(), List.of(), t.toString(), IdentityRef.anonymous(),
                List.of(Harness.read(t.toString())), Map.of(), CredentialPosture.none(), new Stdio.Inherit());
        assertEquals(126, h.run(data).shellStatus());
    }

    @Test
    void gracefulTerminationSendsTermAndImmediateEndsItAtOnce() throws Exception {
        Files.createDirectories(t.resolve("w"));
        Harness h = Harness.shared();
        Execution graceful = h.start(spec("sleep 60", new Stdio.Inherit()));
        Thread.sleep(300);
        assertTrue(graceful.terminate(TerminationRequest.GRACEFUL));
        assertEquals(new ExitDisposition.Signalled(15), graceful.await());
        Execution immediate = h.start(spec("trap \"\" TERM; sleep 60", new Stdio.Inherit()));
        Thread.sleep(300);
        long t0 = System.nanoTime();
        assertTrue(immediate.terminate(TerminationRequest.IMMEDIATE));
        assertEquals(new ExitDisposition.Signalled(9), immediate.await());
        assertTrue(System.nanoTime() - t0 < 20_000_000_000L);
    }

    @Test
    void aSignalSentToAasmReachesTheProgramAsItself() throws Exception {
        Files.createDirectories(t.resolve("w"));
        Harness h = Harness.shared();
        Execution interrupted = h.start(spec("sleep 60", new Stdio.Inherit()));
        Thread.sleep(300);
        assertTrue(interrupted.signal(2));
        ExitDisposition d = interrupted.await();
        assertEquals(new ExitDisposition.Signalled(2), d);
        assertEquals(130, d.shellStatus());
        // control: a program that handles SIGHUP itself exits with its own status, so the signal reached it
        Execution handled = h.start(spec("trap \"exit 7\" HUP; sleep 60 & wait", new Stdio.Inherit()));
        Thread.sleep(300);
        assertTrue(handled.signal(1));
        assertEquals(new ExitDisposition.Exited(7), handled.await());
        assertFalse(handled.signal(10), "a signal outside the relayed set is not sent");
    }

    @Test
    void launchExceptionsNameTheDomainWhenTheEngineCannotExpressAGrant() {
        Harness h = Harness.shared();
        ExecutionSpec egress = new ExecutionSpec("/bin/true", List.of(), t.toString(), IdentityRef.anonymous(),
                List.of(Harness.req(io.aasm.ports.capability.CapabilityDomain.NETWORK_EGRESS, new io.aasm.ports.policy.Scope
                        .Egress(List.of(new io.aasm.ports.policy.EgressGrant(io.aasm.ports.policy.Protocol.TCP, "loopback",
                        80, 80))))), Map.of(), CredentialPosture.none(), new Stdio.Inherit());
        LaunchException e = org.junit.jupiter.api.Assertions.assertThrows(LaunchException.class, () -> h.run(egress));
        assertEquals(LaunchFailureKind.BOUNDARY_REFUSED, e.kind());
        assertTrue(e.getMessage().startsWith("network_egress: "), e.getMessage());
    }
}
