package io.aasm.backend.container.internal.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.aasm.backend.container.internal.engine.Engine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The image every container starts from. By default aasm's own empty root: imported once per engine from
 * an empty tar (1024 zero bytes, the end-of-archive marker), never pulled, and accepted only when its one
 * layer is exactly that empty layer, so nothing of an image can hide under the view. Optionally an image
 * pinned by its content (an image id {@code sha256:...} or {@code name@sha256:...}), which must already be on
 * the engine: aasm never talks to a registry.
 */
public final class RootImage {
    public static final String REPO = "aasm/empty-root";
    public static final String TAG = "1";
    /** sha256 of 1024 zero bytes: the diff id of a layer with no files. */
    static final String EMPTY_LAYER = "sha256:5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef";
    private static final String DIGEST = "sha256:[0-9a-f]{64}";

    /** The image a container is created from: its id, and how it was chosen (for reports). */
    public record Resolved(String id, boolean pinned, String describe) {
    }

    private RootImage() {
    }

    /** Why a configured image is not acceptable (a tag can move; only content addresses pin). */
    public static Optional<String> invalid(String configured) {
        if (configured.matches(DIGEST) || configured.matches("[a-z0-9][a-z0-9._/:-]*@" + DIGEST)) {
            return Optional.empty();
        }
        return Optional.of("image '" + configured + "' is not pinned by content: give an image id (sha256:<64 hex>) "
                + "or name@sha256:<digest>; a tag can be moved to other content after the policy was written");
    }

    public static Resolved resolve(Engine engine, Optional<String> configured) throws IOException {
        if (configured.isPresent()) {
            Optional<String> why = invalid(configured.get());
            if (why.isPresent()) {
                throw new IOException(why.get());
            }
            JsonNode img = engine.inspectImage(configured.get()).orElseThrow(() -> new IOException("the pinned image "
                    + configured.get() + " is not on the engine: import or load it (docker import, docker load); "
                    + "aasm never pulls from a registry"));
            return new Resolved(img.path("Id").asText(), true, "pinned image " + configured.get());
        }
        Optional<JsonNode> img = engine.inspectImage(REPO + ":" + TAG);
        if (img.isEmpty() || !emptyRoot(img.get())) {
            engine.importImage(new byte[1024], REPO, TAG);
            img = engine.inspectImage(REPO + ":" + TAG);
            if (img.isEmpty() || !emptyRoot(img.get())) {
                throw new IOException("the engine did not keep the imported empty root image " + REPO + ":" + TAG);
            }
        }
        return new Resolved(img.get().path("Id").asText(), false, "aasm's empty root image " + REPO + ":" + TAG
                + " (" + img.get().path("Id").asText().substring(0, 19) + ", one empty layer)");
    }

    static boolean emptyRoot(JsonNode image) {
        List<String> layers = new ArrayList<>();
        image.path("RootFS").path("Layers").forEach(l -> layers.add(l.asText()));
        return layers.equals(List.of(EMPTY_LAYER)) && image.path("Config").path("Entrypoint").isNull()
                || layers.equals(List.of(EMPTY_LAYER)) && image.path("Config").path("Entrypoint").isMissingNode();
    }
}
