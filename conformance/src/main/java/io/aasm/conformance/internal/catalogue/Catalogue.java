package io.aasm.conformance.internal.catalogue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every scenario, in a fixed order, in three families: {@code domains} (each of the nine capability
 * domains attacked through its own grants), {@code surroundings} (around the boundary: the caller's
 * terminal, protocol variants, privileges, the seccomp baseline, aasm itself) and {@code mediation} (the
 * supervisor's proxy: real tools through it, programs around it). Names are pinned in
 * .ci/conformance-scenarios.txt.
 */
public final class Catalogue {
    private Catalogue() {
    }

    public static List<Scenario> all() {
        List<Scenario> all = new ArrayList<>();
        families().values().forEach(all::addAll);
        Set<String> seen = new HashSet<>();
        for (Scenario s : all) {
            if (!seen.add(s.name())) {
                throw new IllegalStateException("duplicate scenario name " + s.name());
            }
        }
        return List.copyOf(all);
    }

    /** The families by name, in catalogue order. */
    public static Map<String, List<Scenario>> families() {
        Map<String, List<Scenario>> f = new LinkedHashMap<>();
        f.put("domains", domains());
        f.put("surroundings", List.copyOf(SurroundingsScenarios.all()));
        f.put("mediation", List.copyOf(MediationFamily.all()));
        return f;
    }

    public static Optional<List<Scenario>> family(String name) {
        return Optional.ofNullable(families().get(name));
    }

    private static List<Scenario> domains() {
        List<Scenario> all = new ArrayList<>();
        all.addAll(FilesystemReadScenarios.all());
        all.addAll(FilesystemWriteScenarios.all());
        all.addAll(NetworkScenarios.all());
        all.addAll(NameResolutionScenarios.all());
        all.addAll(SyscallScenarios.all());
        all.addAll(ProcessScenarios.all());
        all.addAll(IpcScenarios.all());
        all.addAll(CredentialScenarios.all());
        all.addAll(ResourceScenarios.all());
        return List.copyOf(all);
    }
}
