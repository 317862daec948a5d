package io.aasm.report.text.internal;

import io.aasm.ports.report.UntrustedText;
import java.util.List;

/** Accumulates report lines; every line is sanitised on the way in, so sections cannot forget. */
final class Lines {
    static final String INDENT = "  ";
    private final StringBuilder out = new StringBuilder();

    Lines add(String line) {
        out.append(UntrustedText.clean(line)).append('\n');
        return this;
    }

    Lines item(String line) {
        return add(INDENT + line);
    }

    /** A titled list; an empty list is shown explicitly rather than left out. */
    static String join(List<String> values) {
        if (values.isEmpty()) {
            return "<none>";
        }
        return String.join(", ", values);
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
