package io.aasm.report.json.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ReportFormatName;
import io.aasm.ports.report.ReportRenderer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.osgi.service.component.annotations.Component;

/** The report as JSON ({@code schema} first), described by the bundled JSON Schema. */
@Component(service = ReportRenderer.class)
@ReportFormatName(JsonReportRenderer.FORMAT)
public final class JsonReportRenderer implements ReportRenderer {
    static final String FORMAT = "json";
    static final String SCHEMA_RESOURCE = "isolation-report.schema.json";

    // The indenters are explicit so the output uses "\n" whatever the platform's line separator is.
    private static final ObjectWriter WRITER = new ObjectMapper().writer(new DefaultPrettyPrinter()
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n"))
            .withSeparators(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)))
            .with(new JsonEscapes());

    private final String schema = loadSchema();

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public String render(IsolationReport report) {
        try {
            return WRITER.writeValueAsString(JsonTree.of(report)) + "\n";
        } catch (JsonProcessingException e) {
            // A tree of plain nodes always serialises; failing here is a programming error.
            throw new IllegalStateException("cannot serialise the isolation report", e);
        }
    }

    @Override
    public Optional<String> schema() {
        return Optional.of(schema);
    }

    private static String loadSchema() {
        try (InputStream in = JsonReportRenderer.class.getResourceAsStream(SCHEMA_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("bundle is missing its resource " + SCHEMA_RESOURCE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
