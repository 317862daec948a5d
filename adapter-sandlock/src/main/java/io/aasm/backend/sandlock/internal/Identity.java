package io.aasm.backend.sandlock.internal;

import io.aasm.backend.sandlock.internal.discovery.BackendManifest;
import io.aasm.backend.sandlock.internal.discovery.Discovered;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.Provenance;
import io.aasm.ports.backend.ProvenanceStatus;
import java.util.Optional;

/** The backend's identity: the version and digest of the sandlock found (or why none), and its provenance. */
final class Identity {
    private Identity() {
    }

    static BackendIdentity of(Discovered d, BackendManifest manifest) {
        String version;
        Optional<String> digest;
        ProvenanceStatus status;
        if (d instanceof Discovered.Found f) {
            version = f.version().toString();
            digest = Optional.of(f.sha256());
            status = f.provenance();
        } else {
            Discovered.Unavailable u = (Discovered.Unavailable) d;
            version = u.version().map(Object::toString).orElse("not-found");
            digest = u.sha256();
            status = digest.filter(manifest.pinnedSha256()::contains).isPresent()
                    ? ProvenanceStatus.VERIFIED : ProvenanceStatus.UNVERIFIED;
        }
        return new BackendIdentity("sandlock", version, new Provenance(manifest.upstream(), manifest.license(),
                manifest.modified(), digest, status));
    }
}
