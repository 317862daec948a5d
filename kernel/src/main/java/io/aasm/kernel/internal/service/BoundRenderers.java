package io.aasm.kernel.internal.service;

import io.aasm.kernel.internal.selection.Guarded;
import io.aasm.ports.report.ReportFormatName;
import io.aasm.ports.report.ReportRenderer;
import java.util.Map;
import java.util.Optional;

/** The bound report renderers under the format name their service properties give. */
final class BoundRenderers {
    private final LazyServices<ReportRenderer> services = new LazyServices<>();

    void add(LazyService<ReportRenderer> lazy, Map<String, Object> props) {
        Object name = props.get(ReportFormatName.NAME);
        // a renderer registered without its format name must be asked, which activates it
        String format = name != null ? name.toString()
                : Guarded.call("format()", () -> lazy.get().format()) instanceof Guarded.Ok<String> ok ? ok.value() : "";
        services.add(format, 0, lazy);
    }

    void remove(Map<String, Object> props) {
        services.remove(props);
    }

    /** The first renderer of this format, activated; empty when none is bound or it cannot start. */
    Optional<ReportRenderer> first(String format) {
        return services.first(format);
    }
}
