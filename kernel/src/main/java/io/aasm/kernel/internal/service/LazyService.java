package io.aasm.kernel.internal.service;

import io.aasm.ports.trace.LaunchStages;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.osgi.framework.Constants;
import org.osgi.service.component.ComponentServiceObjects;

/**
 * One service the kernel has bound without fetching it. Adapters are delayed components, and binding by
 * {@link ComponentServiceObjects} leaves them so: a component is activated on the first {@link #get()}, not
 * when it appears. Starting the kernel therefore costs no backend's host detection, no renderer's JSON
 * library and no mediator; a one-shot run pays only for what its command uses (see docs/benchmarks.md,
 * "Cold start"). SCR ungets what was fetched when the reference is unbound or the kernel deactivates.
 */
final class LazyService<T> implements Supplier<T> {
    private final Supplier<T> fetch;
    private final Object serviceId;
    private final String stage;
    private T service; // guarded by this: fetched once, then shared by every caller

    /** {@code stage}: the launch stage its activation is marked as ({@link LaunchStages}), e.g. {@code activate_backend}. */
    LazyService(ComponentServiceObjects<T> objects, Map<String, Object> props, String stage) {
        this(objects::getService, props.get(Constants.SERVICE_ID), stage);
    }

    /** For tests and embedding: {@code fetch} stands in for the component's activation. */
    LazyService(Supplier<T> fetch, Object serviceId, String stage) {
        this.fetch = Objects.requireNonNull(fetch);
        this.serviceId = serviceId;
        this.stage = stage;
    }

    /** The service, activated on the first call; throws if it cannot be had (its activation failed). */
    @Override
    public synchronized T get() {
        if (service == null) {
            service = fetch.get();
            LaunchStages.mark(stage);
            if (service == null) {
                throw new IllegalStateException("its component could not be activated (see the framework log)");
            }
        }
        return service;
    }

    /** Whether {@code props} are those of the service this stands for (unbind hands a fresh wrapper). */
    boolean isFor(Map<String, Object> props) {
        return serviceId != null && serviceId.equals(props.get(Constants.SERVICE_ID));
    }

    /** Whether {@code active} is the service fetched here; never activates anything. */
    synchronized boolean holds(T active) {
        return service == active;
    }

    static <T> LazyService<T> of(T active) {
        Objects.requireNonNull(active);
        return new LazyService<>(() -> active, null, "");
    }
}
