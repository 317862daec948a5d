package io.aasm.backend.container.internal;

import io.aasm.backend.container.internal.lower.ContainerPlan;
import io.aasm.backend.container.internal.lower.SyscallTable;
import io.aasm.backend.container.internal.probe.AuthorityProbe;
import io.aasm.backend.container.internal.probe.Measured;
import io.aasm.backend.container.internal.probe.ProbeCache;
import io.aasm.backend.container.internal.probe.ProbeResult;
import io.aasm.backend.container.internal.probe.ProbeRunner;
import io.aasm.backend.container.internal.probe.ProbeSuite;
import io.aasm.backend.container.internal.probe.RelayProbe;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.evidence.DescriptorInventory;
import io.aasm.ports.evidence.ProcessAuthority;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * How this host's containers are probed: the cache key (what a container is made of here) and the
 * runs, and the least-authority guarantees that follow from the authority probe.
 */
final class ProbeSetup {
    /** Runs a spec to its end in a container with a tweaked plan. */
    interface Direct {
        ExitDisposition run(ExecutionSpec spec, UnaryOperator<ContainerPlan> tweak) throws LaunchException;
    }

    private final ContainerHost host;
    private final Optional<SyscallTable> table;
    private final Direct direct;
    private final RelayProbe.MediatedRunner mediated;

    ProbeSetup(ContainerHost host, Optional<SyscallTable> table, Direct direct,
               RelayProbe.MediatedRunner mediated) {
        this.host = host;
        this.table = table;
        this.direct = direct;
        this.mediated = mediated;
    }

    Measured.Probing probing(ContainerHost.State.Ready r) {
        ProbeCache cache = new ProbeCache(host.settings().probeCacheDir(), read("/proc/sys/kernel/random/boot_id"),
                read("/proc/sys/kernel/osrelease"), r.facts().engineId(), r.facts().version(), r.image().id(),
                r.guard().sha256(), r.init().sha256() + r.relay().sha256(), r.user(), table.map(t -> t.arch() + t.highest()).orElse(""),
                "suite" + ProbeSuite.VERSION);
        ProbeRunner runner = direct::run;
        Path scratch = Path.of(System.getProperty("java.io.tmpdir"));
        return new Measured.Probing(cache, () -> new ProbeSuite(runner, scratch).runAll(),
                () -> AuthorityProbe.run(runner, scratch),
                () -> RelayProbe.run(mediated, scratch, hostAddresses()));
    }

    /** Only stdio reaches the program: offered when the authority probe saw exactly that here. */
    Optional<DescriptorInventory> descriptors(Measured m) {
        return m.authority().filter(ProbeResult::observed)
                .map(a -> new DescriptorInventory(true, List.of(0, 1, 2), List.of(), List.of()));
    }

    Optional<ProcessAuthority> authority(Measured m) {
        return m.authority().filter(ProbeResult::observed).map(a -> ProcessAuthority.planned("filter", "planned: the "
                + "engine drops every capability set, sets no_new_privileges and applies the seccomp profile before the "
                + "program runs; observed in a container on this host by the probe: " + a.detail()));
    }

    static BackendCapabilities with(BackendCapabilities caps, CapabilityDomain d,
                                    java.util.function.UnaryOperator<CapabilityReport> change) {
        Map<CapabilityDomain, CapabilityReport> reports = new EnumMap<>(caps.reports());
        reports.computeIfPresent(d, (k, v) -> change.apply(v));
        return new BackendCapabilities(caps.availability(), caps.platformBoundary(), reports, caps.measuredAt());
    }

    /** This host's non-loopback IPv4 addresses: where a program bypassing the relay would try to go. */
    static List<String> hostAddresses() {
        try {
            return java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces()).stream()
                    .flatMap(i -> java.util.Collections.list(i.getInetAddresses()).stream())
                    .filter(a -> a instanceof java.net.Inet4Address && !a.isLoopbackAddress())
                    .map(java.net.InetAddress::getHostAddress).limit(4).toList();
        } catch (java.net.SocketException e) {
            return List.of();
        }
    }

    private static String read(String p) {
        try {
            return Files.readString(Path.of(p)).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
