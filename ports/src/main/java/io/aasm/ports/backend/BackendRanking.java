package io.aasm.ports.backend;

import org.osgi.service.component.annotations.ComponentPropertyType;

/**
 * Component property type: property {@code aasm.backend.ranking}; backends not on the configured
 * auto-walk list are walked after it, higher ranking first, then by id.
 */
@ComponentPropertyType
public @interface BackendRanking {
    String PREFIX_ = "aasm.";

    int value();
}
