package io.aasm.conformance.internal.catalogue;

import java.util.ArrayList;
import java.util.List;

/**
 * The "mediation" family (issue 14): the supervisor's proxy as the only way out of a boundary whose policy grants
 * hosts by name. Real tools reach granted stand-in hosts and nothing else, and a program that goes around the
 * proxy has no route. Stand-in hosts listen on 127.0.0.2 to 127.0.0.4; their names exist only in each policy's
 * hosts table.
 */
final class MediationFamily {
    private MediationFamily() {
    }

    static List<Scenario> all() {
        List<Scenario> all = new ArrayList<>(MediationScenarios.all());
        all.addAll(MediationBypassScenarios.all());
        return all;
    }
}
