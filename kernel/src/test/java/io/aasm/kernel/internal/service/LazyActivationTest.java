package io.aasm.kernel.internal.service;

import static io.aasm.kernel.internal.service.KernelFixture.kernel;
import static io.aasm.kernel.internal.service.KernelFixture.request;
import static io.aasm.kernel.internal.service.KernelFixture.sources;
import static io.aasm.kernel.internal.testing.Policies.policy;
import static io.aasm.kernel.internal.testing.Policies.stmt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.kernel.internal.testing.Caps;
import io.aasm.kernel.internal.testing.TestBackend;
import io.aasm.kernel.internal.testing.TestMediator;
import io.aasm.ports.backend.BackendId;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.kernel.BackendStatus;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.report.CandidateVerdict;
import io.aasm.ports.report.ConsideredBackend;
import io.aasm.ports.report.ReportFormatName;
import io.aasm.ports.report.ReportRenderer;
import io.aasm.ports.transport.TransportMediator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;
import org.osgi.service.component.ComponentServiceObjects;

/**
 * Adapters are bound as DS binds them ({@link ComponentServiceObjects}) and activated only when a call
 * needs them: a pinned launch activates its backend, an auto walk activates candidates in walk order and
 * stops at the first that plans, a listing activates every backend. The control for each is a backend
 * that the same call does activate. Laziness never stands in for a measurement: a backend that cannot
 * be activated is a fault with no capabilities, never a candidate that plans.
 */
class LazyActivationTest {

    private static final String POLICY = "p.test";
    private static long nextServiceId = 1;

    /** SCR's handle on a delayed component: getService() is its activation. */
    static final class Objects<T> implements ComponentServiceObjects<T> {
        final AtomicInteger activations = new AtomicInteger();
        private final Supplier<T> component;

        Objects(Supplier<T> component) {
            this.component = component;
        }

        @Override
        public T getService() {
            activations.incrementAndGet();
            return component.get();
        }

        @Override
        public void ungetService(T service) {
        }

        @Override
        public ServiceReference<T> getServiceReference() {
            return null;
        }
    }

    private static Map<String, Object> props(String key, String value) {
        return Map.of(key, value, Constants.SERVICE_ID, nextServiceId++);
    }

    private static Objects<IsolationBackend> backend(KernelComponent k, IsolationBackend b, String id) {
        Objects<IsolationBackend> o = new Objects<>(() -> b);
        k.bindBackend(o, props(BackendId.NAME, id));
        return o;
    }

    private static KernelComponent withPolicy(String... walk) {
        KernelComponent k = kernel(walk);
        sources(k).with(POLICY, policy(Optional.empty(),
                stmt(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of("/tmp/work")))));
        return k;
    }

    private static TestBackend unable(String id) {
        return new TestBackend(id, Caps.all(r -> Caps.with(r, new SupportLevel.Unsupported("test: cannot here"))));
    }

    @Test
    void bindingActivatesNothingAndAnUnconfinedRunNoBackend() {
        KernelComponent k = withPolicy();
        Objects<IsolationBackend> alpha = backend(k, new TestBackend("alpha", Caps.allStrong()), "alpha");
        assertEquals(0, alpha.activations.get(), "bound, not activated");
        assertEquals(List.of("alpha"), k.autoWalkOrder(), "the walk order comes from service properties");
        assertInstanceOf(LaunchDecision.Unconfined.class, k.decide(request(IsolationClass.NONE, POLICY)));
        assertEquals(0, alpha.activations.get(), "an unconfined run needs no backend");
        // control: a confined decision does activate it
        assertInstanceOf(LaunchDecision.Confined.class, k.decide(request(IsolationClass.AUTO, POLICY)));
        assertEquals(1, alpha.activations.get());
    }

    @Test
    void aPinnedLaunchActivatesOnlyThePinnedBackend() {
        KernelComponent k = withPolicy();
        Objects<IsolationBackend> alpha = backend(k, new TestBackend("alpha", Caps.allStrong()), "alpha");
        Objects<IsolationBackend> beta = backend(k, new TestBackend("beta", Caps.allStrong()), "beta");
        LaunchDecision d = k.decide(request(Optional.of(IsolationClass.AUTO), Optional.of("beta"), Optional.of(POLICY),
                "true", List.of(), "/"));
        assertEquals("beta", assertInstanceOf(LaunchDecision.Confined.class, d).plan().backend().id());
        assertEquals(0, alpha.activations.get());
        assertEquals(1, beta.activations.get());
        k.decide(request(Optional.of(IsolationClass.AUTO), Optional.of("beta"), Optional.of(POLICY), "true",
                List.of(), "/"));
        assertEquals(1, beta.activations.get(), "activated once, then reused");
    }

    @Test
    void theWalkActivatesInOrderAndStopsAtTheFirstThatPlans() {
        KernelComponent k = withPolicy("first", "second", "third");
        Objects<IsolationBackend> first = backend(k, unable("first"), "first");
        Objects<IsolationBackend> second = backend(k, new TestBackend("second", Caps.allStrong()), "second");
        Objects<IsolationBackend> third = backend(k, new TestBackend("third", Caps.allStrong()), "third");
        LaunchDecision.Confined c = assertInstanceOf(LaunchDecision.Confined.class,
                k.decide(request(IsolationClass.AUTO, POLICY)));
        assertEquals("second", c.plan().backend().id());
        assertEquals(1, first.activations.get(), "asked and refused");
        assertEquals(1, second.activations.get(), "asked and chosen");
        assertEquals(0, third.activations.get(), "after the chosen one: never activated");
    }

    @Test
    void aListingActivatesEveryBackendAndReportsWhatItsProbesMeasured() {
        KernelComponent k = withPolicy();
        Objects<IsolationBackend> alpha = backend(k, new TestBackend("alpha", Caps.allStrong()), "alpha");
        Objects<IsolationBackend> weak = backend(k, unable("weak"), "weak");
        List<BackendStatus> all = k.backends();
        assertEquals(1, alpha.activations.get());
        assertEquals(1, weak.activations.get());
        BackendStatus w = all.stream().filter(s -> s.id().equals("weak")).findFirst().orElseThrow();
        assertTrue(w.capabilities().orElseThrow().reports().values().stream()
                .allMatch(r -> r.support() instanceof SupportLevel.Unsupported), "the backend's own answer");
    }

    @Test
    void aBackendThatCannotBeActivatedIsAFaultNeverACapability() {
        KernelComponent k = withPolicy("broken", "alpha");
        Objects<IsolationBackend> broken = new Objects<>(() -> null); // SCR: activation failed
        k.bindBackend(broken, props(BackendId.NAME, "broken"));
        backend(k, new TestBackend("alpha", Caps.allStrong()), "alpha");
        BackendStatus s = k.probe("broken", false).orElseThrow();
        assertTrue(s.capabilities().isEmpty(), "no capabilities were measured: none are reported");
        assertTrue(s.fault().orElseThrow().contains("could not be activated"), s.fault().toString());

        LaunchDecision.Confined c = assertInstanceOf(LaunchDecision.Confined.class,
                k.decide(request(IsolationClass.AUTO, POLICY)));
        assertEquals("alpha", c.plan().backend().id(), "the walk moves past it");
        ConsideredBackend first = c.report().selection().orElseThrow().considered().get(0);
        assertEquals("broken", first.id());
        assertEquals(CandidateVerdict.REJECTED_BACKEND_FAULT, first.verdict());

        LaunchDecision pinned = k.decide(request(Optional.of(IsolationClass.AUTO), Optional.of("broken"),
                Optional.of(POLICY), "true", List.of(), "/"));
        assertEquals("backend_fault", assertInstanceOf(LaunchDecision.Refused.class, pinned).report().refusals()
                .get(0).reason());
    }

    private static ReportRenderer renderer(String format) {
        return new ReportRenderer() {
            @Override
            public String format() {
                return format;
            }

            @Override
            public String render(io.aasm.ports.report.IsolationReport report) {
                return format + " report";
            }
        };
    }

    @Test
    void renderersAndMediatorsStartWhenUsed() {
        KernelComponent k = withPolicy();
        Objects<ReportRenderer> json = new Objects<>(() -> renderer("json"));
        Objects<ReportRenderer> text = new Objects<>(() -> renderer("text"));
        k.bindRenderer(json, props(ReportFormatName.NAME, "json"));
        k.bindRenderer(text, props(ReportFormatName.NAME, "text"));
        Objects<TransportMediator> mediator = new Objects<>(TestMediator::new);
        k.bindMediator(mediator, Map.of(Constants.SERVICE_ID, nextServiceId++));
        assertTrue(k.renderer("text").isPresent());
        assertEquals(1, text.activations.get());
        assertEquals(0, json.activations.get(), "a format nobody asked for");
        assertInstanceOf(LaunchDecision.Unconfined.class, k.decide(request(IsolationClass.NONE, POLICY)));
        assertEquals(0, mediator.activations.get(), "deciding a launch without mediation");
    }
}
