package io.aasm.ports.policy;

import java.util.Objects;

/** How a policy covered one domain after lowering. */
public sealed interface DomainCoverage {
    String token();

    /** Lowered to a requirement; {@code sourcedFrom} names the policy node. */
    record Lowered(String sourcedFrom) implements DomainCoverage {
        public Lowered {
            Objects.requireNonNull(sourcedFrom);
        }

        @Override
        public String token() {
            return "stated";
        }
    }

    /** The schema has a node for the domain but this policy did not use it. */
    record NotStated(String node, String schemaDefault) implements DomainCoverage {
        public NotStated {
            Objects.requireNonNull(node);
            Objects.requireNonNull(schemaDefault);
        }

        @Override
        public String token() {
            return "not_stated";
        }
    }

    /** The policy format cannot express this domain at all. */
    record PolicyCannotExpress(String detail) implements DomainCoverage {
        public PolicyCannotExpress {
            Objects.requireNonNull(detail);
        }

        @Override
        public String token() {
            return "policy_cannot_express";
        }
    }
}
