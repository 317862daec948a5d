package io.aasm.backend.sandlock.internal;

import io.aasm.backend.sandlock.internal.capability.CapabilityCatalog;
import io.aasm.backend.sandlock.internal.discovery.Discovered;
import io.aasm.backend.sandlock.internal.discovery.Discovery;
import io.aasm.support.digest.FileIdentity;
import io.aasm.backend.sandlock.internal.probe.ProbeCache;
import io.aasm.backend.sandlock.internal.probe.ProbeResults;
import io.aasm.backend.sandlock.internal.probe.ProbeRunner;
import io.aasm.backend.sandlock.internal.supervise.Runs;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.PlatformBoundary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * What is known about sandlock on this host: the discovery verdict (re-run only when the located
 * file or the lookup environment changes) and the probe results (from the per-host cache, probing
 * once when nothing is cached). No sandlock means no probes.
 */
final class HostState {
    private final Discovery discovery;
    private final ProbeCache cache;
    private final Runs runs;
    private final CapabilityCatalog.Teardown teardown;
    private Object discoveryKey;
    private Discovered discovered;
    private ProbeResults probes;

    HostState(Settings s, Discovery discovery, Runs runs, CapabilityCatalog.Teardown teardown) {
        this.discovery = discovery;
        this.cache = new ProbeCache(s.probeCacheDir(), s.procRoot());
        this.runs = runs;
        this.teardown = teardown;
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

    /**
     * Path, file identity (device, inode, size, mtime, ctime) and access: a binary swapped or written in place,
     * even with its mtime set back, invalidates the verdict (the same identity as the digest cache's).
     */
    private static Object keyOf(Discovery.Locate where) {
        if (where.path() == null) {
            return where.missing();
        }
        Path p = where.path();
        return p + "|" + FileIdentity.of(p).map(FileIdentity::toString).orElse("unreadable") + "|"
                + Files.isExecutable(p) + "|" + Files.isReadable(p);
    }

    synchronized Optional<ProbeResults> probes(boolean refresh) {
        if (!(discovered() instanceof Discovered.Found f)) {
            return Optional.empty();
        }
        if (refresh || probes == null) {
            // The probe set and the guard are part of the key: a new probe or guard never reads stale results.
            String key = cache.key(f.sha256() + "|" + runs.guardDigest() + "|" + String.join(",", ProbeRunner.ALL));
            Optional<ProbeResults> cached = refresh ? Optional.empty() : cache.load(key);
            probes = cached.orElseGet(() -> {
                ProbeResults fresh = new ProbeRunner(f.executable(), runs, runs.actor()).runAll();
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
        if (runs.unavailable().isPresent()) {
            return BackendCapabilities.unavailable(runs.unavailable().get(), PlatformBoundary.SHARED_HOST_KERNEL);
        }
        // a refresh (`aasm probe`) measures again: the teardown check too, in this process
        return CapabilityCatalog.build(probes(refresh).orElseThrow(), refresh ? teardown.forLaunch() : teardown);
    }

    CapabilityCatalog.Teardown teardown() {
        return teardown;
    }
}
