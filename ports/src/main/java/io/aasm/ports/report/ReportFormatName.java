package io.aasm.ports.report;

import org.osgi.service.component.annotations.ComponentPropertyType;

/**
 * Component property type of a {@link ReportRenderer}: property {@code aasm.report.format.name}, the
 * format name users choose (for example {@code --report json}). Front ends list the formats from
 * this property of the installed renderer services.
 */
@ComponentPropertyType
public @interface ReportFormatName {
    String PREFIX_ = "aasm.";

    /** The service property this type generates, for code that reads registered renderers. */
    String PROPERTY = "aasm.report.format.name";

    String value();
}
