package io.aasm.backend.container.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.aasm.backend.container.internal.engine.Engine;
import io.aasm.backend.container.internal.runtime.ContainerExecution;
import io.aasm.backend.container.internal.runtime.Owner;
import java.io.IOException;
import java.util.Map;

/**
 * Removes the containers whose supervisor is gone: each launch's container carries the backend's label and
 * its owner's {@code <pid>-<start time>}; a container whose owner no longer runs was left by a supervisor
 * killed together with its guard (or an engine that was down when the guard tried). Containers of a live
 * supervisor, in this JVM or another, are never touched.
 */
final class Reclaimer {
    private Reclaimer() {
    }

    /** Returns how many containers were removed. */
    static int reclaim(Engine engine, Owner owner) throws IOException {
        int removed = 0;
        for (Map.Entry<String, JsonNode> c : engine.listLabelled(Owner.BACKEND_LABEL, ContainerExecution.BACKEND_ID)) {
            String who = c.getValue().path(Owner.OWNER_LABEL).asText("");
            if (owner.gone(who) && engine.remove(c.getKey())) {
                removed++;
            }
        }
        return removed;
    }
}
