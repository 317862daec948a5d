package io.aasm.ports.transport;

import io.aasm.ports.policy.EgressGrant;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What one mediated launch may reach. {@code grants} are the policy's egress grants (an empty list admits
 * nothing); {@code pinnedHosts} the policy's name-resolution table (name to address), consulted before any
 * resolver; {@code boundaryPort} the port the proxy variables name inside the boundary (ignored for
 * {@link MediationAccess#LOOPBACK}); {@code launchId} goes into every decision record.
 */
public record MediationRequest(String launchId, List<EgressGrant> grants, SortedMap<String, String> pinnedHosts,
                               MediationAccess access, int boundaryPort) {
    public MediationRequest {
        Objects.requireNonNull(launchId, "launchId");
        grants = List.copyOf(grants);
        pinnedHosts = Collections.unmodifiableSortedMap(new TreeMap<>(pinnedHosts));
        Objects.requireNonNull(access, "access");
        if (access == MediationAccess.RELAY && (boundaryPort < 1 || boundaryPort > 65535)) {
            throw new IllegalArgumentException("a relayed session needs a boundary port 1..65535, got " + boundaryPort);
        }
    }
}
