package io.aasm.kernel.internal.service;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The bound services of one kind (backends, policy sources, renderers, mediators), each under the name
 * and ranking its service properties give, none fetched by being here. Copy-on-write: a call works on the
 * snapshot it read, a bind or unbind replaces it.
 */
final class LazyServices<T> {

    /** {@code name}: the backend id or format name from the service properties ("" when there is none). */
    record Entry<T>(String name, int ranking, LazyService<T> service) {
    }

    private volatile List<Entry<T>> entries = List.of();

    synchronized void add(String name, int ranking, LazyService<T> service) {
        List<Entry<T>> next = new ArrayList<>(entries);
        next.add(new Entry<>(name, ranking, service));
        entries = List.copyOf(next);
    }

    /** Drops the service these (unbind) properties name. */
    synchronized void remove(Map<String, Object> props) {
        entries = entries.stream().filter(e -> !e.service().isFor(props)).toList();
    }

    /** Drops an already active service (tests, embedding). */
    synchronized void remove(T active) {
        entries = entries.stream().filter(e -> !e.service().holds(active)).toList();
    }

    List<Entry<T>> entries() {
        return entries;
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    /** The service of the first entry with this name, activated; empty when none is, or it cannot start. */
    Optional<T> first(String name) {
        return entries.stream().filter(e -> e.name().equals(name)).findFirst().flatMap(e -> active(e.service()));
    }

    /** The first entry's service, activated; empty when there is none, or it cannot start. */
    Optional<T> first() {
        return entries.stream().findFirst().flatMap(e -> active(e.service()));
    }

    /** Every service that can be activated, in binding order. */
    List<T> active() {
        List<T> out = new ArrayList<>();
        entries.forEach(e -> active(e.service()).ifPresent(out::add));
        return out;
    }

    private static <T> Optional<T> active(LazyService<T> s) {
        try {
            return Optional.of(s.get());
        } catch (RuntimeException e) {
            return Optional.empty(); // its component failed to activate: as good as not installed for this call
        }
    }
}
