package io.aasm.ports.backend;

import io.aasm.ports.policy.ControlRequirement;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What to launch and under which requirements. {@code environment} is the complete child
 * environment (already reduced to delegated names); its values are never rendered or logged.
 */
public record ExecutionSpec(
        String program,
        List<String> args,
        String workingDirectory,
        IdentityRef identity,
        List<ControlRequirement> requirements,
        Map<String, String> environment,
        CredentialPosture credentials,
        Stdio stdio) {

    public ExecutionSpec {
        Objects.requireNonNull(program);
        args = List.copyOf(args);
        Objects.requireNonNull(workingDirectory);
        Objects.requireNonNull(identity);
        requirements = List.copyOf(requirements);
        environment = java.util.Collections.unmodifiableMap(new TreeMap<>(environment));
        Objects.requireNonNull(credentials);
        Objects.requireNonNull(stdio);
    }

    /** Never prints environment values. */
    @Override
    public String toString() {
        return "ExecutionSpec[program=" + program + ", args=" + args.size() + ", workingDirectory=" + workingDirectory
                + ", requirements=" + requirements + ", environmentNames=" + environment.keySet() + "]";
    }
}
