package io.aasm.kernel.internal.service;

import static io.aasm.kernel.internal.service.KernelFixture.bind;
import static io.aasm.kernel.internal.service.KernelFixture.request;
import static io.aasm.kernel.internal.service.KernelFixture.sources;
import static io.aasm.kernel.internal.testing.Policies.policy;
import static io.aasm.kernel.internal.testing.Policies.stmt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.aasm.kernel.internal.testing.Caps;
import io.aasm.kernel.internal.testing.TestBackend;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.kernel.FrameworkProperties;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.Scope;
import java.lang.annotation.Annotation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The launcher's own state (the framework property) is always protected; configuration can add
 * paths, never take one away (an operator's conf file is applied after the launcher set the property).
 */
class ProtectedPathsTest {

    private static KernelConfig configured(String... paths) {
        return new KernelConfig() {
            @Override
            public String[] auto_walk() {
                return new String[0];
            }

            @Override
            public String[] protected_paths() {
                return paths;
            }

            @Override
            public Class<? extends Annotation> annotationType() {
                return KernelConfig.class;
            }
        };
    }

    @Test
    void configuredPathsAreAddedToTheLaunchersNeverInPlaceOfThem() {
        assertEquals(List.of("/opt/aasm", "/home/u/.cache/aasm", "/srv/secrets"), KernelSettings.protectedPaths(
                Optional.of("/opt/aasm:/home/u/.cache/aasm"), new String[] {"/srv/secrets", "relative", "/opt/aasm"}));
        assertEquals(List.of("/srv/secrets"), KernelSettings.protectedPaths(Optional.empty(),
                new String[] {" /srv/secrets "}));
        assertEquals(List.of("/opt/aasm"), KernelSettings.protectedPaths(Optional.of("/opt/aasm"), new String[0]));
    }

    @Test
    void theBackendIsHandedBoth() {
        KernelComponent k = new KernelComponent(configured("/srv/secrets"),
                Map.of(FrameworkProperties.PROTECTED_PATHS, "/opt/aasm")::get);
        sources(k).with("p.test", policy(Optional.empty(),
                stmt(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of("/tmp/work")))));
        TestBackend alpha = new TestBackend("alpha", Caps.allStrong());
        bind(k, alpha, 0);
        assertInstanceOf(LaunchDecision.Confined.class, k.decide(request(IsolationClass.AUTO, "p.test")));
        assertEquals(List.of("/opt/aasm", "/srv/secrets"), alpha.lastSpec.protectedPaths());
    }
}
