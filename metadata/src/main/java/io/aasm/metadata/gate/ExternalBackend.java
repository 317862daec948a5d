package io.aasm.metadata.gate;

import java.util.List;
import java.util.Set;

/** What the distribution scan needs to know about one external backend. */
record ExternalBackend(String id, List<String> executableNames, Set<String> pinnedSha256) {
    ExternalBackend {
        executableNames = List.copyOf(executableNames);
        pinnedSha256 = Set.copyOf(pinnedSha256);
    }
}
