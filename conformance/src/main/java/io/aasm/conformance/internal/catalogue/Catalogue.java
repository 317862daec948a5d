package io.aasm.conformance.internal.catalogue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Every scenario, in a fixed order. Names are pinned in .ci/conformance-scenarios.txt. */
public final class Catalogue {
    private Catalogue() {
    }

    public static List<Scenario> all() {
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
        Set<String> seen = new HashSet<>();
        for (Scenario s : all) {
            if (!seen.add(s.name())) {
                throw new IllegalStateException("duplicate scenario name " + s.name());
            }
        }
        return List.copyOf(all);
    }
}
