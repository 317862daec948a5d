package io.aasm.cli.internal;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.aasm.ports.backend.Stdio;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The reused {@code run} model: hit for the same face on one thread, missed for anything that differs. */
class RunBranchTest {
    private final ReportFormats formats = new ReportFormats();

    @Test
    void theSameFaceOnOneThreadReusesTheModel() {
        CommandLine first = RunBranch.acquire(inv(formats, "v1"));
        RunBranch.release(first);
        CommandLine second = RunBranch.acquire(inv(formats, "v1"));
        RunBranch.release(second);
        assertSame(first, second);
    }

    @Test
    void otherReportFormatsOrAnotherVersionBuildANewModel() {
        CommandLine first = RunBranch.acquire(inv(formats, "v1"));
        RunBranch.release(first);
        CommandLine otherFormats = RunBranch.acquire(inv(new ReportFormats(), "v1"));
        RunBranch.release(otherFormats);
        assertNotSame(first, otherFormats);
        CommandLine otherVersion = RunBranch.acquire(inv(new ReportFormats(), "v2"));
        RunBranch.release(otherVersion);
        assertNotSame(otherFormats, otherVersion);
    }

    @Test
    void aCallNestedInACallNeverGetsTheModelInUse() {
        CommandLine outer = RunBranch.acquire(inv(formats, "v1"));
        CommandLine nested = RunBranch.acquire(inv(formats, "v1"));
        RunBranch.release(nested);
        assertNotSame(outer, nested);
        RunBranch.release(outer);
        CommandLine after = RunBranch.acquire(inv(formats, "v1"));
        RunBranch.release(after);
        assertSame(outer, after, "control: released, the thread's model is reused again");
    }

    @Test
    void anotherThreadBuildsItsOwn() throws Exception {
        CommandLine here = RunBranch.acquire(inv(formats, "v1"));
        RunBranch.release(here);
        AtomicReference<CommandLine> there = new AtomicReference<>();
        Thread t = new Thread(() -> {
            CommandLine cl = RunBranch.acquire(inv(formats, "v1"));
            RunBranch.release(cl);
            there.set(cl);
        });
        t.start();
        t.join();
        assertNotSame(here, there.get());
    }

    private static Invocation inv(ReportFormats formats, String version) {
        CommandInvocation call = new CommandInvocation(List.of("run", "exec", "--", "/bin/true"), "/",
                Map.of("PATH", "/bin"), new ByteArrayInputStream(new byte[0]),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), new Stdio.Inherit(),
                new CommandInvocation.Caller(CommandInvocation.Face.CLI, 1, 0), new AtomicInteger(),
                new AtomicReference<>(), List.of());
        CliIo io = new CliIo(call, new FaceSettings(Optional.of(Path.of("/home")), version, List.of(), 10,
                Optional.empty()));
        return new Invocation(io, new ServiceGate<>(), new ServiceGate<>(), formats);
    }
}
