package io.aasm.ports.backend;

import org.osgi.service.component.annotations.ComponentPropertyType;

/**
 * Component property type: property {@value #NAME}; backends not on the configured
 * auto-walk list are walked after it, higher ranking first, then by id.
 */
@ComponentPropertyType
public @interface BackendRanking {
    String PREFIX_ = "aasm.";
    /** The service property this type sets (an integer; absent or unreadable counts as 0). */
    String NAME = "aasm.backend.ranking";

    int value();
}
