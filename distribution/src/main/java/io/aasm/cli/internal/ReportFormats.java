package io.aasm.cli.internal;

import io.aasm.ports.report.ReportFormatName;
import io.aasm.ports.report.ReportRenderer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The report formats installed right now: one name per {@link ReportRenderer} service, as it
 * registered ({@link ReportFormatName}, else its {@code format()}, the kernel's precedence too). The
 * faces feed it from a dynamic reference, so a renderer bundle added to or removed from the framework
 * changes the {@code --report} choices without a restart. Thread-safe: binds replace a snapshot.
 * Iterating it yields the sorted names, which is how picocli lists the choices in help.
 */
final class ReportFormats implements Iterable<String> {
    /** What {@code --report} means when it is not given. */
    static final String DEFAULT = "text";

    // keyed by what unbinds it: the service reference (the faces) or the renderer itself (tests, embedding)
    private volatile List<Map.Entry<Object, String>> installed = List.of();

    synchronized void bind(ReportRenderer renderer, Map<String, Object> props) {
        bind(renderer, props, () -> formatOf(renderer));
    }

    /**
     * {@code unnamed} is asked only when the service has no {@link ReportFormatName} property: naming the
     * formats must not activate every renderer (and load its JSON library) on every run.
     */
    synchronized void bind(Object key, Map<String, Object> props, Supplier<String> unnamed) {
        Object name = props.get(ReportFormatName.PROPERTY);
        List<Map.Entry<Object, String>> next = new ArrayList<>(installed);
        next.add(Map.entry(key, name != null ? name.toString() : unnamed.get()));
        installed = List.copyOf(next);
    }

    synchronized void unbind(Object key) {
        installed = installed.stream().filter(e -> !e.getKey().equals(key)).toList();
    }

    /** The installed format names, sorted, each once. */
    List<String> names() {
        return installed.stream().map(Map.Entry::getValue).filter(n -> !n.isEmpty()).distinct().sorted().toList();
    }

    boolean has(String format) {
        return names().contains(format);
    }

    /** For messages: {@code json, kv, text}, or a sentence when nothing is installed. */
    String describe() {
        List<String> names = names();
        return names.isEmpty() ? "no report renderer is installed" : "installed: " + String.join(", ", names);
    }

    @Override
    public Iterator<String> iterator() {
        return names().iterator();
    }

    /** A renderer that throws from format() is listed under no name rather than breaking the command. */
    static String formatOf(ReportRenderer renderer) {
        try {
            return Objects.requireNonNullElse(renderer.format(), "");
        } catch (RuntimeException e) {
            return "";
        }
    }
}
