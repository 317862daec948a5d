package io.aasm.kernel.internal.transport;

import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.transport.MediationAccess;
import io.aasm.ports.transport.MediationRequest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.SortedMap;
import java.util.TreeMap;

/** What a mediated launch asks of the mediator: the policy's egress grants and pinned names, under a fresh id. */
public final class MediationRequests {
    private static final SecureRandom RANDOM = new SecureRandom();

    private MediationRequests() {
    }

    public static MediationRequest of(ExecutionSpec spec, MediationAccess access) {
        SortedMap<String, String> pins = new TreeMap<>();
        spec.requirements().stream().filter(r -> r.domain() == CapabilityDomain.NAME_RESOLUTION)
                .map(r -> r.scope()).filter(s -> s instanceof Scope.PinnedHosts)
                .forEach(s -> pins.putAll(((Scope.PinnedHosts) s).hosts()));
        var grants = spec.requirements().stream().filter(r -> r.domain() == CapabilityDomain.NETWORK_EGRESS)
                .findFirst().map(TransportDecider::grants).orElse(java.util.List.of());
        return new MediationRequest(launchId(), grants, pins, access, access == MediationAccess.RELAY
                ? spec.transport().boundaryPort() : 0);
    }

    /** 64 random bits, in hex: unique enough to name a session folder and to tie records to one launch. */
    static String launchId() {
        byte[] b = new byte[8];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
