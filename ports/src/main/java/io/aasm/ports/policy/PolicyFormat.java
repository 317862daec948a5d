package io.aasm.ports.policy;

import org.osgi.service.component.annotations.ComponentPropertyType;

/** Component property type of a {@link PolicySource}: property {@value #NAME}. */
@ComponentPropertyType
public @interface PolicyFormat {
    String PREFIX_ = "aasm.";
    /** The service property this type sets, for readers of service properties (and filters). */
    String NAME = "aasm.policy.format";

    /** The format name, for example {@code yaml}. */
    String value();
}
