package io.aasm.backend.sandlock.internal;

import io.aasm.backend.sandlock.internal.capability.CapabilityCatalog;
import io.aasm.backend.sandlock.internal.discovery.BackendManifest;
import io.aasm.backend.sandlock.internal.discovery.Discovered;
import io.aasm.backend.sandlock.internal.discovery.Discovery;
import io.aasm.backend.sandlock.internal.probe.ProbeCache;
import io.aasm.backend.sandlock.internal.probe.ProbeResults;
import io.aasm.backend.sandlock.internal.probe.ProbeRunner;
import io.aasm.backend.sandlock.internal.supervise.Trackers;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.PlatformBoundary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What is known about sandlock on this host: the discovery verdict (re-run only when the located
 * file or the lookup environment changes) and the probe results (from the per-host cache, probing
 * once when nothing is cached). No sandlock means no probes.
 */
final class HostState {
    private final Discovery discovery;
    private final ProbeCache cache;
    private final Trackers trackers;
    private final ScheduledExecutorService timers;
    private Object discoveryKey;
    private Discovered discovered;
    private ProbeResults probes;

    HostState(Settings s, BackendManifest manifest, Discovery discovery, Trackers trackers,
              ScheduledExecutorService timers) {
        this.discovery = discovery;
        this.cache = new ProbeCache(s.probeCacheDir(), s.procRoot());
        this.trackers = trackers;
        this.timers = timers;
    }

    synchronized Discovered discovered() {
        Discovery.Locate where = discovery.locate();
        Object key = keyOf(where);
        if (discovered == null || !Objects.equals(key, discoveryKey)) {
            discovered = discovery.discover();
            discoveryKey = key;
            probes = null;
        }
        return discovered;
    }

    /** Path plus size and modification time: replacing the binary in place invalidates the verdict. */
    private static Object keyOf(Discovery.Locate where) {
        if (where.path() == null) {
            return where.missing();
        }
        Path p = where.path();
        try {
            return p + "|" + Files.size(p) + "|" + Files.getLastModifiedTime(p) + "|" + Files.isExecutable(p)
                    + "|" + Files.isReadable(p);
        } catch (java.io.IOException e) {
            return p + "|unreadable";
        }
    }

    synchronized Optional<ProbeResults> probes(boolean refresh) {
        if (!(discovered() instanceof Discovered.Found f)) {
            return Optional.empty();
        }
        if (refresh || probes == null) {
            String key = cache.key(f.sha256());
            Optional<ProbeResults> cached = refresh ? Optional.empty() : cache.load(key);
            probes = cached.orElseGet(() -> {
                ProbeResults fresh = new ProbeRunner(f.executable(), trackers, timers).runAll();
                cache.store(key, fresh);
                return fresh;
            });
        }
        return Optional.of(probes);
    }

    synchronized BackendCapabilities capabilities(boolean refresh) {
        if (refresh) {
            discoveryKey = null;
        }
        Discovered d = discovered();
        if (d instanceof Discovered.Unavailable u) {
            return BackendCapabilities.unavailable(u.reason(), PlatformBoundary.SHARED_HOST_KERNEL);
        }
        return CapabilityCatalog.build(probes(refresh).orElseThrow(), trackers);
    }

    CapabilityCatalog.Teardown teardown() {
        return trackers;
    }
}
