package io.aasm.kernel.internal.lowering;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.DomainCoverage;
import io.aasm.ports.policy.DomainLowering;
import io.aasm.ports.policy.Policy;
import io.aasm.ports.policy.PolicyLowering;
import io.aasm.ports.policy.PolicyStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Lowers a parsed policy to requirements. Always nine domain verdicts in domain order; an absent
 * statement is "not stated" (no requirement), never an implicit grant or an implicit deny.
 */
public final class PolicyLowerer {

    public PolicyLowering lower(Policy policy) {
        List<ControlRequirement> requirements = new ArrayList<>();
        List<DomainLowering> domains = new ArrayList<>();
        for (CapabilityDomain domain : CapabilityDomain.values()) {
            DomainNodes nodes = DomainNodes.of(domain);
            Optional<PolicyStatement> statement = policy.statement(domain);
            DomainCoverage coverage;
            if (statement.isPresent()) {
                PolicyStatement s = statement.get();
                requirements.add(new ControlRequirement(domain, s.intent(), s.posture(), s.descendants(), s.scope()));
                coverage = new DomainCoverage.Lowered(nodes.nodeFor(s.scope()) + " at " + s.where());
            } else {
                coverage = new DomainCoverage.NotStated(nodes.node(), nodes.schemaDefault());
            }
            domains.add(new DomainLowering(domain, coverage, nodes.residualGaps()));
        }
        return new PolicyLowering(policy.origin(), policy.isolation(), requirements, domains, policy.unmapped());
    }
}
