package io.aasm.kernel.internal.framework;

import static io.aasm.kernel.internal.testing.Policies.policy;
import static io.aasm.kernel.internal.testing.Policies.stmt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.kernel.internal.testing.Caps;
import io.aasm.kernel.internal.testing.TestBackend;
import io.aasm.kernel.internal.testing.TestPolicySource;
import io.aasm.ports.backend.BackendId;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.kernel.FrameworkProperties;
import io.aasm.ports.kernel.IsolationKernel;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.kernel.LaunchRequest;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.PolicyFormat;
import io.aasm.ports.policy.PolicySource;
import io.aasm.ports.policy.Scope;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.osgi.util.tracker.ServiceTracker;

/**
 * The kernel bundle (exploded target/classes) under a real framework and SCR: a backend service
 * registered after the kernel started is used by the next decision, and one that goes away is no
 * longer used, without restarting anything. The ports packages come from the class path (system
 * bundle exports) so the test and the bundle share one set of port types.
 */
class HotDeployInFrameworkTest {

    private static final String PORTS = "io.aasm.ports.audit;version=1.0.0,"
            + "io.aasm.ports.backend;version=1.0.0,io.aasm.ports.capability;version=1.0.0,"
            + "io.aasm.ports.evidence;version=1.0.0,io.aasm.ports.kernel;version=1.0.0,"
            + "io.aasm.ports.plan;version=1.0.0,io.aasm.ports.policy;version=1.0.0,io.aasm.ports.report;version=1.0.0,"
            + "io.aasm.ports.trace;version=1.0.0,io.aasm.ports.transport;version=1.0.0";

    @TempDir
    Path storage;

    private Framework framework;

    @BeforeEach
    void boot() throws Exception {
        Map<String, String> config = new HashMap<>();
        config.put(Constants.FRAMEWORK_STORAGE, storage.toString());
        config.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        config.put(Constants.FRAMEWORK_SYSTEMPACKAGES_EXTRA, PORTS);
        config.put(FrameworkProperties.AUTO_WALK, "first-choice,tb");
        framework = ServiceLoader.load(FrameworkFactory.class).iterator().next().newFramework(config);
        framework.start();
        BundleContext ctx = framework.getBundleContext();
        List<Bundle> bundles = new ArrayList<>();
        for (String artifact : List.of("org.osgi.util.function", "org.osgi.util.promise", "org.osgi.service.component-",
                "org.apache.felix.scr")) {
            bundles.add(ctx.installBundle(jar(artifact).toURI().toString()));
        }
        bundles.add(ctx.installBundle("reference:" + new File("target/classes").getAbsoluteFile().toURI()));
        for (Bundle b : bundles) {
            b.start();
        }
    }

    @AfterEach
    void stop() throws Exception {
        framework.stop();
        framework.waitForStop(0);
    }

    /** Test dependencies are on the class path; the bundles are installed from those jars. */
    private static File jar(String artifactPrefix) {
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            File f = new File(entry);
            if (f.getName().startsWith(artifactPrefix) && f.getName().endsWith(".jar")) {
                return f;
            }
        }
        throw new AssertionError("no " + artifactPrefix + " jar on the test class path");
    }

    private static Dictionary<String, Object> props(String key, Object value) {
        Hashtable<String, Object> p = new Hashtable<>();
        p.put(key, value);
        return p;
    }

    @Test
    void backendsComeAndGoWithoutARestart() throws Exception {
        BundleContext ctx = framework.getBundleContext();
        ServiceTracker<IsolationKernel, IsolationKernel> tracker = new ServiceTracker<>(ctx, IsolationKernel.class, null);
        tracker.open();
        IsolationKernel kernel = tracker.waitForService(60_000);
        assertNotNull(kernel, "the kernel component did not come up");
        assertEquals(List.of("first-choice", "tb"), kernel.autoWalkOrder(), "framework property honoured");

        TestPolicySource source = new TestPolicySource().with("p.test", policy(Optional.empty(),
                stmt(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of("/tmp")))));
        ctx.registerService(PolicySource.class, source, props(PolicyFormat.NAME, "test"));
        LaunchRequest request = new LaunchRequest(Optional.of(IsolationClass.AUTO), Optional.empty(),
                Optional.of("p.test"), "true", List.of(), "/", IdentityRef.anonymous(),
                Map.of("PATH", "/usr/bin:/bin"), new Stdio.Inherit());

        LaunchDecision.Refused before = assertInstanceOf(LaunchDecision.Refused.class, kernel.decide(request));
        assertTrue(before.message().contains("first-choice: not installed"), before.message());

        TestBackend backend = new TestBackend("tb", Caps.allStrong());
        ServiceRegistration<IsolationBackend> reg = ctx.registerService(IsolationBackend.class, backend,
                props(BackendId.NAME, "tb"));
        LaunchDecision.Confined confined = assertInstanceOf(LaunchDecision.Confined.class, kernel.decide(request));
        assertEquals("tb", confined.plan().backend().id());
        assertEquals(1, kernel.backends().size());

        reg.unregister();
        assertInstanceOf(LaunchDecision.Refused.class, kernel.decide(request));
        assertEquals(0, kernel.backends().size());
        tracker.close();
    }

    /**
     * Under real SCR the kernel binds a backend without fetching it: a service factory (what a delayed DS
     * component is to the framework) is asked for its object only when a decision needs that backend.
     * The control is the confined decision, which does fetch it.
     */
    @Test
    void aBackendIsFetchedOnlyWhenADecisionNeedsIt() throws Exception {
        BundleContext ctx = framework.getBundleContext();
        ServiceTracker<IsolationKernel, IsolationKernel> tracker = new ServiceTracker<>(ctx, IsolationKernel.class, null);
        tracker.open();
        IsolationKernel kernel = tracker.waitForService(60_000);
        assertNotNull(kernel, "the kernel component did not come up");
        TestPolicySource source = new TestPolicySource().with("p.test", policy(Optional.empty(),
                stmt(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of("/tmp")))));
        ctx.registerService(PolicySource.class, source, props(PolicyFormat.NAME, "test"));
        java.util.concurrent.atomic.AtomicInteger fetched = new java.util.concurrent.atomic.AtomicInteger();
        ctx.registerService(IsolationBackend.class.getName(), new org.osgi.framework.ServiceFactory<IsolationBackend>() {
            @Override
            public IsolationBackend getService(Bundle bundle, ServiceRegistration<IsolationBackend> registration) {
                fetched.incrementAndGet();
                return new TestBackend("tb", Caps.allStrong());
            }

            @Override
            public void ungetService(Bundle bundle, ServiceRegistration<IsolationBackend> registration,
                                     IsolationBackend service) {
            }
        }, props(BackendId.NAME, "tb"));
        assertEquals(List.of("first-choice", "tb"), kernel.autoWalkOrder(), "bound");
        assertEquals(0, fetched.get(), "bound without being fetched");
        LaunchRequest none = new LaunchRequest(Optional.of(IsolationClass.NONE), Optional.empty(),
                Optional.of("p.test"), "true", List.of(), "/", IdentityRef.anonymous(),
                Map.of("PATH", "/usr/bin:/bin"), new Stdio.Inherit());
        assertInstanceOf(LaunchDecision.Unconfined.class, kernel.decide(none));
        assertEquals(0, fetched.get(), "an unconfined decision needs no backend");
        LaunchRequest auto = new LaunchRequest(Optional.of(IsolationClass.AUTO), Optional.empty(),
                Optional.of("p.test"), "true", List.of(), "/", IdentityRef.anonymous(),
                Map.of("PATH", "/usr/bin:/bin"), new Stdio.Inherit());
        assertEquals("tb", assertInstanceOf(LaunchDecision.Confined.class, kernel.decide(auto)).plan().backend().id());
        assertEquals(1, fetched.get(), "the walk fetched it");
        tracker.close();
    }
}
