package io.aasm.ports.backend;

import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.transport.TransportMediation;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What to launch and under which requirements. {@code environment} is the complete child
 * environment (already reduced to delegated names); its values are never rendered or logged.
 * {@code protectedPaths} are the supervisor's own installation, caches and runtime state: the program must
 * never be able to write them, so a backend makes them unreachable or read-only inside its boundary, or
 * reports the write domain unsupported for this launch (naming the overlap) when a write grant covers one.
 * {@code transport} is the kernel's decision on transport mediation: when it is {@code MEDIATED}, a backend that
 * can relay plans for it and says so ({@link BackendPlan#relaysTransport()}); one that cannot is not selected.
 * {@code verify} is {@code --verify}: run every canary the backend has, also those whose cost on this host is over
 * the per-launch budget (a backend runs the ones within it in any case).
 */
public record ExecutionSpec(
        String program,
        List<String> args,
        String workingDirectory,
        IdentityRef identity,
        List<ControlRequirement> requirements,
        Map<String, String> environment,
        CredentialPosture credentials,
        Stdio stdio,
        List<String> protectedPaths,
        TransportMediation transport,
        boolean verify) {

    public ExecutionSpec {
        Objects.requireNonNull(program);
        args = List.copyOf(args);
        Objects.requireNonNull(workingDirectory);
        Objects.requireNonNull(identity);
        requirements = List.copyOf(requirements);
        environment = java.util.Collections.unmodifiableMap(new TreeMap<>(environment));
        Objects.requireNonNull(credentials);
        Objects.requireNonNull(stdio);
        protectedPaths = List.copyOf(protectedPaths);
        for (String p : protectedPaths) {
            if (!p.startsWith("/")) {
                throw new IllegalArgumentException("protected path must be absolute: " + p);
            }
        }
        Objects.requireNonNull(transport, "transport");
    }

    /** A spec without {@code --verify}. */
    public ExecutionSpec(String program, List<String> args, String workingDirectory, IdentityRef identity,
                         List<ControlRequirement> requirements, Map<String, String> environment,
                         CredentialPosture credentials, Stdio stdio, List<String> protectedPaths,
                         TransportMediation transport) {
        this(program, args, workingDirectory, identity, requirements, environment, credentials, stdio, protectedPaths,
                transport, false);
    }

    /** The same spec with {@code --verify} on or off. */
    public ExecutionSpec withVerify(boolean on) {
        return new ExecutionSpec(program, args, workingDirectory, identity, requirements, environment, credentials, stdio,
                protectedPaths, transport, on);
    }

    /** A spec without transport mediation (backends' own tests, probes, embedded callers). */
    public ExecutionSpec(String program, List<String> args, String workingDirectory, IdentityRef identity,
                         List<ControlRequirement> requirements, Map<String, String> environment,
                         CredentialPosture credentials, Stdio stdio, List<String> protectedPaths) {
        this(program, args, workingDirectory, identity, requirements, environment, credentials, stdio, protectedPaths,
                TransportMediation.notRequested());
    }

    /** A spec without protected paths (embedded callers and tests that run no supervisor state). */
    public ExecutionSpec(String program, List<String> args, String workingDirectory, IdentityRef identity,
                         List<ControlRequirement> requirements, Map<String, String> environment,
                         CredentialPosture credentials, Stdio stdio) {
        this(program, args, workingDirectory, identity, requirements, environment, credentials, stdio, List.of(),
                TransportMediation.notRequested());
    }

    /** Never prints environment values. */
    @Override
    public String toString() {
        return "ExecutionSpec[program=" + program + ", args=" + args.size() + ", workingDirectory=" + workingDirectory
                + ", requirements=" + requirements + ", environmentNames=" + environment.keySet() + ", protectedPaths="
                + protectedPaths + ", transport=" + transport.state().token() + ", verify=" + verify + "]";
    }
}
