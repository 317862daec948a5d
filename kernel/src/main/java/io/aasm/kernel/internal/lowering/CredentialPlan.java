package io.aasm.kernel.internal.lowering;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The child environment and its name-only accounting. A confined child starts from an empty
 * environment and receives only delegated names; an unconfined child inherits everything, so the
 * credential-looking names it keeps are reported as ambient authority.
 */
public record CredentialPlan(SortedMap<String, String> environment, CredentialPosture posture) {

    private static final List<String> CREDENTIAL_MARKERS =
            List.of("TOKEN", "KEY", "SECRET", "PASSWORD", "PASS", "CREDENTIAL", "AUTH");

    public CredentialPlan {
        environment = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(environment));
    }

    /** A confined launch: only names delegated by a credential requirement are copied. */
    public static CredentialPlan confined(Map<String, String> caller, List<ControlRequirement> requirements) {
        TreeSet<String> wanted = new TreeSet<>();
        for (ControlRequirement r : requirements) {
            if (r.domain() == CapabilityDomain.CREDENTIAL && r.scope() instanceof Scope.Delegated d) {
                wanted.addAll(d.environmentNames());
            }
        }
        TreeMap<String, String> env = new TreeMap<>();
        TreeSet<String> removed = new TreeSet<>();
        for (Map.Entry<String, String> e : caller.entrySet()) {
            if (wanted.contains(e.getKey())) {
                env.put(e.getKey(), e.getValue());
            } else {
                removed.add(e.getKey());
            }
        }
        return new CredentialPlan(env, new CredentialPosture(removed, new TreeSet<>(env.keySet()), new TreeSet<>()));
    }

    /** No boundary: the child sees the whole caller environment. */
    public static CredentialPlan unconfined(Map<String, String> caller) {
        TreeSet<String> ambient = new TreeSet<>();
        for (String name : caller.keySet()) {
            if (looksLikeCredential(name)) {
                ambient.add(name);
            }
        }
        return new CredentialPlan(new TreeMap<>(caller),
                new CredentialPosture(new TreeSet<>(), new TreeSet<>(), ambient));
    }

    static boolean looksLikeCredential(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        return CREDENTIAL_MARKERS.stream().anyMatch(upper::contains);
    }

    /** Values are never printed. */
    @Override
    public String toString() {
        return "CredentialPlan[names=" + environment.keySet() + ", posture=" + posture + "]";
    }
}
