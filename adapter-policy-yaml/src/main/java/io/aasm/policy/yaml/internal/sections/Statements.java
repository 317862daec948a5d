package io.aasm.policy.yaml.internal.sections;

import io.aasm.policy.yaml.internal.tree.Problems;
import io.aasm.policy.yaml.internal.tree.YNode;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.DescendantRequirement;
import io.aasm.ports.policy.PolicyStatement;
import io.aasm.ports.policy.Scope;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The statements lowered so far, plus the list of keys every section may carry besides its own. */
public final class Statements {
    private final Problems problems;
    private final Map<CapabilityDomain, PolicyStatement> byDomain = new EnumMap<>(CapabilityDomain.class);

    public Statements(Problems problems) {
        this.problems = problems;
    }

    public Problems problems() {
        return problems;
    }

    /** Records a statement located at the section's key; the format has one node per domain. */
    void put(CapabilityDomain domain, Scope scope, Header header, YNode.Entry section) {
        byDomain.put(domain, new PolicyStatement(domain, scope, header.intent(), header.posture(),
                DescendantRequirement.PROCESS_TREE, problems.where(section.line(), section.column())));
    }

    public Map<CapabilityDomain, PolicyStatement> byDomain() {
        return byDomain;
    }

    static List<String> withHeader(String... own) {
        return java.util.stream.Stream.concat(java.util.Arrays.stream(own), Header.KEYS.stream()).toList();
    }
}
