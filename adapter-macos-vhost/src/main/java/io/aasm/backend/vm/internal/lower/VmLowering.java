package io.aasm.backend.vm.internal.lower;

import io.aasm.ports.capability.CapabilityDomain;
import java.util.Objects;

/** A launch lowered for the VM, or the one domain whose scope cannot be installed and why. */
public sealed interface VmLowering {
    record Lowered(VmLaunch launch) implements VmLowering {
        public Lowered {
            Objects.requireNonNull(launch);
        }
    }

    record Refused(CapabilityDomain domain, String detail) implements VmLowering {
        public Refused {
            Objects.requireNonNull(domain);
            Objects.requireNonNull(detail);
        }
    }
}
