package io.aasm.ports.backend;

import org.osgi.service.component.annotations.ComponentPropertyType;

/** Component property type of an {@link IsolationBackend}: property {@code aasm.backend.id}. */
@ComponentPropertyType
public @interface BackendId {
    String PREFIX_ = "aasm.";

    String value();
}
