package io.aasm.policy.yaml.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The published JSON Schema (docs/schema/policy.schema.json), bundled as a resource by the build. */
final class PolicySchema {
    static final String RESOURCE = "/io/aasm/policy/yaml/internal/policy.schema.json";

    private PolicySchema() {
    }

    static String text() {
        try (InputStream in = PolicySchema.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("policy.schema.json missing from the bundle");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
