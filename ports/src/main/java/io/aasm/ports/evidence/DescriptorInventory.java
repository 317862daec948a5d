package io.aasm.ports.evidence;

import java.util.List;

/**
 * Inherited descriptors at launch: which stay (stdio and delegated), which were sealed
 * close-on-exec, and which could not be closed. {@code complete} is false when the inventory
 * could not enumerate every descriptor.
 */
public record DescriptorInventory(boolean complete, List<Integer> kept, List<Integer> sealed, List<String> residual) {
    public DescriptorInventory {
        kept = List.copyOf(kept);
        sealed = List.copyOf(sealed);
        residual = List.copyOf(residual);
    }

    public boolean clean() {
        return complete && residual.isEmpty();
    }
}
