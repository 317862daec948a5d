package io.aasm.conformance.internal;

import io.aasm.kernel.internal.service.KernelComponent;
import io.aasm.kernel.internal.service.KernelConfig;
import io.aasm.policy.yaml.internal.YamlPolicySource;
import io.aasm.ports.backend.BackendId;
import io.aasm.ports.backend.IsolationBackend;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the real kernel, the YAML policy source and the backends through their constructors, as DS
 * would. Backends are built reflectively so that a backend whose bundle is not (yet) complete makes
 * its column "cannot host" with the reason, instead of breaking the build of this module.
 */
public final class Components {
    private Components() {
    }

    public static KernelComponent kernel() {
        KernelComponent k = new KernelComponent(defaults(KernelConfig.class), p -> null);
        k.addPolicySource(new YamlPolicySource());
        return k;
    }

    /** The backend, or why it could not be constructed here. */
    static Optional<IsolationBackend> nativeBackend(StringBuilder why) {
        try {
            Class<?> settings = Class.forName("io.aasm.backend.landlockseccomp.internal.LandlockSeccompSettings");
            Object defaults = settings.getMethod("defaults").invoke(null);
            Class<?> backend = Class.forName("io.aasm.backend.landlockseccomp.internal.LandlockSeccompBackend");
            return Optional.of((IsolationBackend) backend.getConstructor(settings).newInstance(defaults));
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            why.append("aasm-native could not be constructed: ").append(cause(e));
            return Optional.empty();
        }
    }

    static Optional<IsolationBackend> sandlockBackend(StringBuilder why) {
        try {
            Class<?> config = Class.forName("io.aasm.backend.sandlock.internal.SandlockConfig");
            Class<?> backend = Class.forName("io.aasm.backend.sandlock.internal.SandlockBackend");
            return Optional.of((IsolationBackend) backend.getConstructor(config).newInstance(defaults(config)));
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            why.append("sandlock could not be constructed: ").append(cause(e));
            return Optional.empty();
        }
    }

    /** The real transport mediator (the supervisor's proxy), or why it could not be constructed here. */
    static Optional<io.aasm.ports.transport.TransportMediator> mediator(StringBuilder why) {
        try {
            Class<?> config = Class.forName("io.aasm.transport.proxy.internal.ProxyConfig");
            Class<?> mediator = Class.forName("io.aasm.transport.proxy.internal.ProxyMediator");
            return Optional.of((io.aasm.ports.transport.TransportMediator) mediator.getConstructor(config)
                    .newInstance(defaults(config)));
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            why.append("the transport mediator could not be constructed: ").append(cause(e));
            return Optional.empty();
        }
    }

    /** The container backend on whatever engine this host runs (unavailable, with the reason, where none). */
    static Optional<IsolationBackend> containerBackend(StringBuilder why) {
        try {
            Class<?> settings = Class.forName("io.aasm.backend.container.internal.Settings");
            Object defaults = settings.getMethod("defaults").invoke(null);
            Class<?> backend = Class.forName("io.aasm.backend.container.internal.ContainerBackend");
            return Optional.of((IsolationBackend) backend.getConstructor(settings).newInstance(defaults));
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            why.append("aasm-container could not be constructed: ").append(cause(e));
            return Optional.empty();
        }
    }

    /** {@code aasm-qemu-vm} with its defaults (state and probes under $XDG_CACHE_HOME, image from the kernel package). */
    static Optional<IsolationBackend> qemuVmBackend(StringBuilder why) {
        try {
            Class<?> config = Class.forName("io.aasm.backend.vm.internal.QemuVmConfig");
            Class<?> backend = Class.forName("io.aasm.backend.vm.internal.QemuVmBackend");
            return Optional.of((IsolationBackend) backend.getConstructor(config).newInstance(defaults(config)));
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            why.append("aasm-qemu-vm could not be constructed: ").append(cause(e));
            return Optional.empty();
        }
    }

    static void bind(KernelComponent k, String id, IsolationBackend b) {
        k.addBackend(b, Map.of(BackendId.NAME, id));
    }

    private static String cause(Throwable e) {
        Throwable c = e;
        while (c.getCause() != null) {
            c = c.getCause();
        }
        return c.getClass().getSimpleName() + ": " + c.getMessage();
    }

    /** An instance of a configuration annotation answering every element with its default. */
    @SuppressWarnings("unchecked")
    static <A> A defaults(Class<A> type) {
        return (A) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, m, args) -> {
            if (m.getName().equals("annotationType")) {
                return type;
            }
            // -Daasm.conformance.vm.share.transport=virtiofs runs the VM column over virtiofs (docs/vm.md)
            String vmShares = System.getProperty("aasm.conformance.vm.share.transport", "");
            if (m.getName().equals("share_transport") && !vmShares.isBlank()) {
                return vmShares;
            }
            if (m.getDefaultValue() != null) {
                return m.getDefaultValue();
            }
            return switch (m.getName()) {
                case "toString" -> type.getSimpleName() + "(defaults)";
                case "hashCode" -> 0;
                case "equals" -> proxy == args[0];
                default -> throw new UnsupportedOperationException(m.getName() + " has no default");
            };
        });
    }
}
