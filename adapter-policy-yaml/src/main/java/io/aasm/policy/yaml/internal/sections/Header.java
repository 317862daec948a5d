package io.aasm.policy.yaml.internal.sections;

import io.aasm.policy.yaml.internal.rules.Suggest;
import io.aasm.ports.policy.RequirementIntent;
import io.aasm.ports.policy.RequirementPosture;
import java.util.Arrays;
import java.util.List;

/** The per-section {@code posture:} and {@code intent:} keys, with their strict defaults. */
record Header(RequirementIntent intent, RequirementPosture posture) {
    static final List<String> KEYS = List.of("posture", "intent");
    private static final List<String> POSTURES = tokens(RequirementPosture.values());
    private static final List<String> INTENTS = tokens(RequirementIntent.values());

    static Header read(Fields f) {
        RequirementPosture posture = f.string("posture", "posture: required").map(s -> {
            var p = RequirementPosture.fromToken(s.text());
            if (p.isEmpty()) {
                f.problems().at(s, "unknown posture '" + s.text() + "' in " + f.path(),
                        Suggest.didYouMean(s.text(), POSTURES) + "posture is one of " + String.join(", ", POSTURES));
            }
            return p.orElse(RequirementPosture.REQUIRED);
        }).orElse(RequirementPosture.REQUIRED);
        RequirementIntent intent = f.string("intent", "intent: prevent_before_effect").map(s -> {
            for (RequirementIntent i : RequirementIntent.values()) {
                if (i.token().equals(s.text())) {
                    return i;
                }
            }
            f.problems().at(s, "unknown intent '" + s.text() + "' in " + f.path(),
                    Suggest.didYouMean(s.text(), INTENTS) + "intent is one of " + String.join(", ", INTENTS));
            return RequirementIntent.PREVENT_BEFORE_EFFECT;
        }).orElse(RequirementIntent.PREVENT_BEFORE_EFFECT);
        return new Header(intent, posture);
    }

    private static List<String> tokens(io.aasm.ports.capability.Token[] values) {
        return Arrays.stream(values).map(io.aasm.ports.capability.Token::token).toList();
    }
}
