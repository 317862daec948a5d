package io.aasm.kernel.internal.service;

import io.aasm.kernel.internal.testing.TestBackend;
import io.aasm.kernel.internal.testing.TestPolicySource;
import io.aasm.ports.backend.BackendId;
import io.aasm.ports.backend.BackendRanking;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.kernel.LaunchRequest;
import io.aasm.ports.policy.IsolationClass;
import java.lang.annotation.Annotation;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Builds a kernel through its constructor, as DS would, with test services bound by hand. */
final class KernelFixture {

    static KernelConfig config(String... walk) {
        return new KernelConfig() {
            @Override
            public String[] auto_walk() {
                return walk;
            }

            @Override
            public String[] protected_paths() {
                return new String[0];
            }

            @Override
            public Class<? extends Annotation> annotationType() {
                return KernelConfig.class;
            }
        };
    }

    static KernelComponent kernel(Map<String, String> frameworkProperties, String... walk) {
        return new KernelComponent(config(walk), frameworkProperties::get);
    }

    static KernelComponent kernel(String... walk) {
        return kernel(Map.of(), walk);
    }

    static void bind(KernelComponent k, TestBackend b, int ranking) {
        Map<String, Object> props = new HashMap<>();
        props.put(BackendId.NAME, b.id);
        props.put(BackendRanking.NAME, ranking);
        k.addBackend(b, props);
    }

    static Map<String, String> callerEnv() {
        return Map.of("PATH", "/usr/bin:/bin", "HOME", "/tmp", "LANG", "C", "API_TOKEN", "t0k3n-value");
    }

    static LaunchRequest request(Optional<IsolationClass> isolation, Optional<String> pinned, Optional<String> policy,
                                 String program, List<String> args, String workdir) {
        return new LaunchRequest(isolation, pinned, policy, program, args, workdir, IdentityRef.anonymous(),
                callerEnv(), new Stdio.Inherit());
    }

    static LaunchRequest request(IsolationClass isolation, String policy) {
        return request(Optional.of(isolation), Optional.empty(), Optional.ofNullable(policy), "true", List.of(), "/");
    }

    static TestPolicySource sources(KernelComponent k) {
        TestPolicySource s = new TestPolicySource();
        k.addPolicySource(s);
        return s;
    }
}
