package io.aasm.backend.vm.internal;

import io.aasm.backend.vm.internal.qemu.QemuHypervisor;
import io.aasm.backend.vm.internal.qemu.QemuSettings;
import io.aasm.backend.vm.internal.qemu.Spawner;
import io.aasm.backend.vm.internal.runtime.VmBoundary;
import io.aasm.ports.backend.BackendId;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.PreparedLaunch;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.backend.EnforcementPlan;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.Designate;

/**
 * {@code aasm-qemu-vm}: every launch in a Linux guest of its own under QEMU (KVM when it works here, TCG
 * otherwise), restored from a pre-booted template. The platform boundary is a separate kernel. This class
 * only wires the roles; {@link VmBoundary} is the backend.
 */
@Component(service = IsolationBackend.class, configurationPid = "io.aasm.backend.vm.qemu",
        configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = QemuVmConfig.class)
@BackendId(QemuVmBackend.ID)
public final class QemuVmBackend implements IsolationBackend {
    public static final String ID = "aasm-qemu-vm";
    static final String SOURCE = "aasm adapter-macos-vhost (first party; guest agent built from src/main/c/guest; "
            + "QEMU and the guest kernel are the system's Debian packages, never bundled)";

    private final ScheduledExecutorService timers;
    private final Spawner spawner;
    private final VmBoundary boundary;

    @Activate
    public QemuVmBackend(QemuVmConfig config) {
        this(Settings.qemu(config));
    }

    public QemuVmBackend(QemuSettings settings) {
        this.timers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "aasm-vm-timers");
            t.setDaemon(true);
            return t;
        });
        this.spawner = new Spawner(settings.setpriv(), settings.vm().uid() == 0);
        this.boundary = new VmBoundary(ID, SOURCE, new QemuHypervisor(settings, spawner, timers), settings.vm(), timers);
    }

    @Deactivate
    void deactivate() {
        timers.shutdownNow();
        spawner.close();
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

    /** Where the probe verdicts are cached under the current key (tests, diagnostics). */
    public Path probeCacheFile() {
        return boundary.probeCacheFile();
    }

    /** As {@link #runDirect(ExecutionSpec)} with the lowered plan altered first (the broken-boundary test). */
    public ExitDisposition runDirect(ExecutionSpec spec, java.util.function.UnaryOperator<
            io.aasm.backend.vm.internal.guest.GuestPlan> alter) throws LaunchException {
        return boundary.runDirect(spec, alter);
    }

    /** As {@link #runDirect(ExecutionSpec)} with the whole lowered launch altered first (canary tests). */
    public ExitDisposition runLowered(ExecutionSpec spec, java.util.function.UnaryOperator<
            io.aasm.backend.vm.internal.lower.VmLaunch> alter) throws LaunchException {
        return boundary.runLowered(spec, alter);
    }

    /** A mediated spec run to its end with its proxy port led to {@code endpoint} (tests, the relay probe). */
    public ExitDisposition runMediated(ExecutionSpec spec, io.aasm.ports.transport.RelayEndpoint endpoint,
                                       java.util.Map<String, String> environment,
                                       io.aasm.backend.vm.internal.guest.GuestSession.Output stdout)
            throws LaunchException {
        return boundary.runMediated(spec, endpoint, environment, stdout);
    }

    public Path stateDir() {
        return boundary.stateDir();
    }
}
