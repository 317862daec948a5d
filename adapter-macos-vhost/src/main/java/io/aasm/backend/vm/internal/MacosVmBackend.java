package io.aasm.backend.vm.internal;

import com.sun.jna.Native;
import io.aasm.backend.vm.internal.runtime.VmBoundary;
import io.aasm.backend.vm.internal.runtime.VmSettings;
import io.aasm.backend.vm.internal.vz.VzHypervisor;
import io.aasm.backend.vm.internal.vz.VzSettings;
import io.aasm.ports.backend.BackendId;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.PreparedLaunch;
import io.aasm.ports.capability.BackendCapabilities;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.Designate;

/**
 * {@code aasm-macos-vm}: every launch in a Linux guest of its own under Apple's Virtualization.framework, run by
 * the signed {@code aasm-vz} helper (a stock {@code java} cannot hold the virtualization entitlement). The same
 * boundary as {@code aasm-qemu-vm} ({@link VmBoundary}: lowering, protocol, probes) with another
 * {@link io.aasm.backend.vm.internal.runtime.Hypervisor}. Anywhere but a Mac with a pinned, entitled helper it is
 * listed unavailable with the reason, its capabilities empty.
 */
@Component(service = IsolationBackend.class, configurationPid = "io.aasm.backend.vm.macos",
        configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = MacosVmConfig.class)
@BackendId(MacosVmBackend.ID)
public final class MacosVmBackend implements IsolationBackend {
    public static final String ID = "aasm-macos-vm";
    static final String SOURCE = "aasm adapter-macos-vhost (first party; guest agent built from src/main/c/guest; "
            + "the aasm-vz helper built from src/main/swift/aasm-vz and signed by the operator)";

    private final ScheduledExecutorService timers;
    private final VzHypervisor hypervisor;
    private final VmBoundary boundary;

    @Activate
    public MacosVmBackend(MacosVmConfig c) {
        this(settings(c));
    }

    public MacosVmBackend(VzSettings settings) {
        this.timers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "aasm-vz-timers");
            t.setDaemon(true);
            return t;
        });
        this.hypervisor = new VzHypervisor(settings, timers);
        this.boundary = new VmBoundary(ID, SOURCE, hypervisor, settings.vm(), timers);
    }

    static VzSettings settings(MacosVmConfig c) {
        Path cache = VmSettings.cacheRoot();
        Settings.LibC libc = Native.load("c", Settings.LibC.class);
        VmSettings vm = new VmSettings(path(c.state_dir()).orElse(cache.resolve("vm-macos")),
                path(c.probe_cache_dir()).orElse(cache.resolve("probes")), Path.of(System.getProperty("java.io.tmpdir")),
                c.memory_mib(), c.vcpus(), c.slots(), c.boot_timeout_seconds() * 1000L,
                c.answer_timeout_seconds() * 1000L, libc.geteuid(), libc.getegid());
        return new VzSettings(vm, path(c.helper_path()), text(c.helper_sha256()), path(c.image_dir()), true);
    }

    private static Optional<Path> path(String s) {
        return text(s).map(Path::of);
    }

    private static Optional<String> text(String s) {
        return s == null || s.isBlank() ? Optional.empty() : Optional.of(s.strip());
    }

    @Deactivate
    void deactivate() {
        timers.shutdownNow();
        hypervisor.close();
    }

    @Override
    public BackendIdentity identity() {
        return boundary.identity();
    }

    @Override
    public BackendCapabilities capabilities() {
        return boundary.capabilities();
    }

    @Override
    public BackendCapabilities refreshCapabilities() {
        return boundary.refreshCapabilities();
    }

    @Override
    public BackendPlan plan(ExecutionSpec spec) {
        return boundary.plan(spec);
    }

    @Override
    public PreparedLaunch prepare(EnforcementPlan plan) throws LaunchException {
        return boundary.prepare(plan);
    }

    /** Lowers and runs one launch to its end, bypassing negotiation (tests and probes). */
    public ExitDisposition runDirect(ExecutionSpec spec) throws LaunchException {
        return boundary.runDirect(spec);
    }

    /**
     * As {@link #runDirect(ExecutionSpec)} with the lowered plan altered first: how a test takes the guest's own
     * layers away to see what the host alone enforces. Not reachable from the kernel or any configuration.
     */
    public ExitDisposition runDirect(ExecutionSpec spec, java.util.function.UnaryOperator<
            io.aasm.backend.vm.internal.guest.GuestPlan> alter) throws LaunchException {
        return boundary.runDirect(spec, alter);
    }

    /** Why no guest can run here, or empty (tests, diagnostics). */
    public Optional<String> unavailable() {
        return boundary.unavailable();
    }
}
