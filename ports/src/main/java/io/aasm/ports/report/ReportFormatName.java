package io.aasm.ports.report;

import org.osgi.service.component.annotations.ComponentPropertyType;

/** Component property type of a {@link ReportRenderer}: property {@code aasm.report.format.name}. */
@ComponentPropertyType
public @interface ReportFormatName {
    String PREFIX_ = "aasm.";

    String value();
}
