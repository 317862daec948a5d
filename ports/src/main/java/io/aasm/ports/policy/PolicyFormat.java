package io.aasm.ports.policy;

import org.osgi.service.component.annotations.ComponentPropertyType;

/** Component property type of a {@link PolicySource}: property {@code aasm.policy.format}. */
@ComponentPropertyType
public @interface PolicyFormat {
    String PREFIX_ = "aasm.";

    /** The format name, for example {@code yaml}. */
    String value();
}
