package io.aasm.ports.backend;

import org.osgi.service.component.annotations.ComponentPropertyType;

/** Component property type of an {@link IsolationBackend}: property {@value #NAME}. */
@ComponentPropertyType
public @interface BackendId {
    String PREFIX_ = "aasm.";
    /** The service property this type sets, for readers of service properties (and filters). */
    String NAME = "aasm.backend.id";

    String value();
}
