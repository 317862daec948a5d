package io.aasm.report.text.internal;

import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ReportFormatName;
import io.aasm.ports.report.ReportRenderer;
import org.osgi.service.component.annotations.Component;

/** The human report: the {@code --- execution isolation ---} section, sections in a fixed order. */
@Component(service = ReportRenderer.class)
@ReportFormatName(TextReportRenderer.FORMAT)
public final class TextReportRenderer implements ReportRenderer {
    static final String FORMAT = "text";
    static final String TITLE = "--- execution isolation ---";

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public String render(IsolationReport report) {
        Lines out = new Lines();
        out.add(TITLE);
        HeaderSection.write(report, out);
        RequestedSection.write(report, out);
        DomainTableSection.write(report, out);
        ShortfallSection.writeShortfalls(report, out);
        PolicyGapSection.write(report, out);
        AmbientSection.write(report, out);
        ShortfallSection.writeUnmeasured(report, out);
        PostRunSection.write(report, out);
        return out.toString();
    }
}
