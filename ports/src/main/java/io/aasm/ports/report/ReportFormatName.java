package io.aasm.ports.report;

import org.osgi.service.component.annotations.ComponentPropertyType;

/** Component property type of a {@link ReportRenderer}: property {@value #NAME}. */
@ComponentPropertyType
public @interface ReportFormatName {
    String PREFIX_ = "aasm.";
    /** The service property this type sets, for readers of service properties (and filters). */
    String NAME = "aasm.report.format.name";

    String value();
}
