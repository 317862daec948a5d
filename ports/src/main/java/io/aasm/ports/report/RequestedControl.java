package io.aasm.ports.report;

import io.aasm.ports.policy.ControlRequirement;
import java.util.Objects;

/** What policy requested for one domain. */
public sealed interface RequestedControl {
    String token();

    record Stated(ControlRequirement requirement) implements RequestedControl {
        public Stated {
            Objects.requireNonNull(requirement);
        }

        @Override
        public String token() {
            return "stated";
        }
    }

    record NotStated(String node, String schemaDefault) implements RequestedControl {
        public NotStated {
            Objects.requireNonNull(node);
            Objects.requireNonNull(schemaDefault);
        }

        @Override
        public String token() {
            return "not_stated";
        }
    }

    record PolicyCannotExpress(String detail) implements RequestedControl {
        public PolicyCannotExpress {
            Objects.requireNonNull(detail);
        }

        @Override
        public String token() {
            return "policy_cannot_express";
        }
    }

    /** No policy was derived at all (for example the policy failed to load under a dry run). */
    record NotDerived() implements RequestedControl {
        @Override
        public String token() {
            return "not_derived";
        }
    }
}
