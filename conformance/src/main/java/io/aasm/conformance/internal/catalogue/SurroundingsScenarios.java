package io.aasm.conformance.internal.catalogue;

import java.util.ArrayList;
import java.util.List;

/**
 * The "surroundings" family (issue 11): what a hostile program tries around the boundary rather than
 * through a grant. The caller's terminal and session, protocol variants of an egress grant, root's
 * capabilities and what the report says about them, side doors of the seccomp baseline, metadata of
 * read-only grants, folders watched or sockets reached outside the grants, state left for aasm or the
 * next launch, and aasm itself (its resident kernel and its CLI) as a way out.
 */
final class SurroundingsScenarios {
    private SurroundingsScenarios() {
    }

    static List<Scenario> all() {
        List<Scenario> all = new ArrayList<>();
        all.addAll(TerminalScenarios.all());
        all.addAll(ProtocolScenarios.all());
        all.addAll(PrivilegeScenarios.all());
        all.addAll(BaselineScenarios.all());
        all.addAll(MetadataScenarios.all());
        all.addAll(UnseenScenarios.all());
        all.addAll(StateScenarios.all());
        all.addAll(DistributionScenarios.all());
        return all;
    }
}
