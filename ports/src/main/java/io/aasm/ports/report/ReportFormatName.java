package io.aasm.ports.report;

import org.osgi.service.component.annotations.ComponentPropertyType;

/**
 * Component property type of a {@link ReportRenderer}: property {@value #NAME}, the format name users
 * choose (for example {@code --report json}). Front ends list the formats from this property of the
 * installed renderer services.
 */
@ComponentPropertyType
public @interface ReportFormatName {
    String PREFIX_ = "aasm.";
    /** The service property this type sets, for readers of service properties (and filters). */
    String NAME = "aasm.report.format.name";

    /** The same name as {@link #NAME}, under the name the report front ends use. */
    String PROPERTY = NAME;

    String value();
}
