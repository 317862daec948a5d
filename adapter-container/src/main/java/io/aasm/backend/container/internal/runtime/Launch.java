package io.aasm.backend.container.internal.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aasm.backend.container.internal.canary.CanaryBait;
import io.aasm.backend.container.internal.engine.Attachment;
import io.aasm.backend.container.internal.engine.Engine;
import io.aasm.backend.container.internal.engine.Http;
import io.aasm.backend.container.internal.engine.LongPoll;
import io.aasm.backend.container.internal.lower.ContainerPlan;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One container from creation to removal. {@link #create} makes the container and its guard (nothing
 * runs yet); {@link #start} attaches the streams, registers the wait, and starts it; {@link #await} returns
 * once the engine has removed it (AutoRemove) and all its output was delivered. Teardown happens once.
 */
public final class Launch {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Where the program's streams are: descriptor numbers in this process. */
    public record Streams(int in, int out, int err) {
    }

    private final Engine engine;
    private final ContainerPlan plan;
    private final String id;
    private final Lifeline lifeline;
    private final Optional<Path> generated;
    private final Streams streams;
    private final boolean tty;
    private final ScheduledExecutorService timers;
    private final Optional<CanaryBait> canaries;
    private final Optional<TransportRelay.Setup> mediation;
    private Optional<TransportRelay> transport = Optional.empty();
    private StdioRelay relay;
    private LongPoll waiter;
    private Optional<TerminalMode> terminal = Optional.empty();
    private ScheduledFuture<?> deadline;
    private volatile boolean deadlineHit;
    private volatile int signalled;
    private ExitDisposition disposition;
    private boolean released;

    private Launch(Engine engine, ContainerPlan plan, String id, Lifeline lifeline, Optional<Path> generated,
                   Streams streams, boolean tty, ScheduledExecutorService timers, Optional<CanaryBait> canaries,
                   Optional<TransportRelay.Setup> mediation) {
        this.mediation = mediation;
        this.engine = engine;
        this.plan = plan;
        this.id = id;
        this.lifeline = lifeline;
        this.generated = generated;
        this.streams = streams;
        this.tty = tty;
        this.timers = timers;
        this.canaries = canaries;
    }

    /** Creates the container and starts its guard; on any failure nothing is left behind. */
    public static Launch create(Engine engine, ContainerPlan plan, byte[] request, Optional<Path> generated,
                                Path guard, Streams streams, boolean tty, ScheduledExecutorService timers,
                                Optional<CanaryBait> canaries) throws LaunchException {
        return create(engine, plan, request, generated, guard, streams, tty, timers, canaries, Optional.empty());
    }

    /** The same, with the transport relay a mediated plan starts right after its container (RELAY.md). */
    public static Launch create(Engine engine, ContainerPlan plan, byte[] request, Optional<Path> generated,
                                Path guard, Streams streams, boolean tty, ScheduledExecutorService timers,
                                Optional<CanaryBait> canaries, Optional<TransportRelay.Setup> mediation)
            throws LaunchException {
        String id;
        try {
            id = engine.create(request);
        } catch (IOException e) {
            canaries.ifPresent(CanaryBait::close);
            generated.ifPresent(StateDir::delete);
            throw new LaunchException(LaunchFailureKind.BOUNDARY_REFUSED, "the engine refused the container: "
                    + e.getMessage(), e);
        }
        try {
            Lifeline l = Lifeline.start(guard, engine.http().socket(), engine.prefix(), id);
            return new Launch(engine, plan, id, l, generated, streams, tty, timers, canaries, mediation);
        } catch (IOException e) {
            canaries.ifPresent(CanaryBait::close);
            removeQuietly(engine, id);
            generated.ifPresent(StateDir::delete);
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "the container's lifeline could not start: "
                    + e.getMessage(), e);
        }
    }

    public String id() {
        return id;
    }

    public ContainerPlan plan() {
        return plan;
    }

    public boolean tty() {
        return tty;
    }

    public synchronized boolean started() {
        return relay != null;
    }

    /** Attach, register the wait, start: the program runs once this returns. */
    public synchronized void start() throws LaunchException {
        Attachment a = null;
        try {
            a = Attachment.open(engine.http(), engine.prefix(), id, tty);
            waiter = engine.waitRemoved(id);
            if (tty) {
                terminal = TerminalMode.raw(streams.in());
            }
            engine.start(id);
            if (mediation.isPresent()) {
                transport = Optional.of(TransportRelay.forContainer(engine, id, mediation.get()));
            }
        } catch (IOException e) {
            if (a != null) {
                a.close();
            }
            if (waiter != null) {
                waiter.close();
            }
            terminal.ifPresent(TerminalMode::restore);
            release();
            throw new LaunchException(ExitMapping.startFailure(e.getMessage()), "the engine could not start the "
                    + "container: " + e.getMessage(), e);
        }
        relay = new StdioRelay(a, streams.in(), streams.out(), streams.err(),
                canaries.isPresent() ? (tty ? 1 : 2) : 0);
        relay.start();
        if (tty) {
            resize();
        }
        plan.wallClockSeconds().ifPresent(s -> deadline = timers.schedule(() -> {
            deadlineHit = true;
            removeQuietly(engine, id);
        }, s, TimeUnit.SECONDS));
    }

    /** Blocks until the container is gone and its output delivered; idempotent. */
    public ExitDisposition await() throws InterruptedException {
        synchronized (this) {
            if (disposition != null) {
                return disposition;
            }
        }
        ExitDisposition d;
        try {
            Http.Response r = waiter.await();
            JsonNode body = JSON.readTree(r.body());
            relay.awaitOutput(10_000);
            String error = body.path("Error").path("Message").asText("");
            d = error.isEmpty() ? ExitMapping.map(body.path("StatusCode").asInt(), deadlineHit, signalled,
                    relay.execFailure()) : new ExitDisposition.NotStarted(LaunchFailureKind.BACKEND_ERROR, error);
        } catch (IOException e) {
            removeQuietly(engine, id);
            d = new ExitDisposition.NotStarted(LaunchFailureKind.BACKEND_ERROR, "lost the engine while waiting: "
                    + e.getMessage());
        }
        synchronized (this) {
            if (disposition == null) {
                disposition = d;
                relay.stop();
                terminal.ifPresent(TerminalMode::restore);
                if (deadline != null) {
                    deadline.cancel(false);
                }
                release();
            }
            return disposition;
        }
    }

    public synchronized Optional<ExitDisposition> disposition() {
        return Optional.ofNullable(disposition);
    }

    public boolean deadlineHit() {
        return deadlineHit;
    }

    /** Graceful: SIGTERM to the container's init, which passes it on. Immediate: the container is removed. */
    public boolean terminate(boolean graceful) {
        if (disposition().isPresent() || !started()) {
            return false;
        }
        signalled = graceful ? 15 : 9;
        try {
            return graceful ? engine.kill(id, "TERM") : engine.remove(id);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A signal sent to aasm, delivered as itself: the engine sends it to the container's init, which passes it
     * on to the program's group (so SIGINT ends a program with 130, as with aasm-native). Without an init the
     * program is pid 1 and sees only the signals it handles.
     */
    public boolean signal(int signal) {
        if (disposition().isPresent() || !started()) {
            return false;
        }
        signalled = signal;
        try {
            return engine.kill(id, Integer.toString(signal));
        } catch (IOException e) {
            return false;
        }
    }

    /** The caller's terminal changed size: the container's terminal follows. */
    public boolean resize() {
        Optional<int[]> size = TerminalMode.size(streams.out(), streams.in());
        if (!tty || size.isEmpty() || disposition().isPresent()) {
            return false;
        }
        try {
            engine.resize(id, size.get()[0], size.get()[1]);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Removes the container (if still there) and everything made for it; once. */
    public synchronized void release() {
        if (released) {
            return;
        }
        released = true;
        if (disposition == null || deadlineHit) {
            removeQuietly(engine, id);
        }
        transport.ifPresent(TransportRelay::close);
        lifeline.close();
        generated.ifPresent(StateDir::delete);
        canaries.ifPresent(CanaryBait::close);
    }

    /** The launch's canaries, if it carried any. */
    public Optional<CanaryBait> canaries() {
        return canaries;
    }

    /** The init's canary line as the relay took it (before any program byte), once the output ended. */
    public synchronized Optional<String> canaryLine() {
        return relay == null ? Optional.empty() : relay.canaryLine();
    }

    static void removeQuietly(Engine engine, String id) {
        try {
            engine.remove(id);
        } catch (IOException e) {
            // the guard removes it when this JVM ends; the next start reclaims it otherwise
        }
    }
}
