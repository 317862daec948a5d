package io.aasm.ports.kernel;

import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.policy.IsolationClass;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One request to launch (or preview) a program. {@code callerEnvironment} is the caller's
 * environment: the child gets only the names policy delegates from it. {@code isolation} empty means
 * "whatever the policy states, else none". {@code transportMediation} false is {@code --no-proxy}: the program's
 * traffic is not mediated (its boundary is unchanged); true (the default) lets the kernel mediate it.
 * {@code verify} is {@code --verify}: every canary the chosen backend has runs, also those over the budget.
 */
public record LaunchRequest(
        Optional<IsolationClass> isolation,
        Optional<String> pinnedBackend,
        Optional<String> policyFile,
        String program,
        List<String> args,
        String workingDirectory,
        IdentityRef identity,
        Map<String, String> callerEnvironment,
        Stdio stdio,
        boolean transportMediation,
        boolean verify) {

    public LaunchRequest {
        Objects.requireNonNull(isolation);
        Objects.requireNonNull(pinnedBackend);
        Objects.requireNonNull(policyFile);
        Objects.requireNonNull(program);
        args = List.copyOf(args);
        Objects.requireNonNull(workingDirectory);
        Objects.requireNonNull(identity);
        callerEnvironment = java.util.Collections.unmodifiableMap(new TreeMap<>(callerEnvironment));
        Objects.requireNonNull(stdio);
    }

    /** A request without {@code --verify}. */
    public LaunchRequest(Optional<IsolationClass> isolation, Optional<String> pinnedBackend, Optional<String> policyFile,
                         String program, List<String> args, String workingDirectory, IdentityRef identity,
                         Map<String, String> callerEnvironment, Stdio stdio, boolean transportMediation) {
        this(isolation, pinnedBackend, policyFile, program, args, workingDirectory, identity, callerEnvironment, stdio,
                transportMediation, false);
    }

    /** A request with transport mediation (the default). */
    public LaunchRequest(Optional<IsolationClass> isolation, Optional<String> pinnedBackend, Optional<String> policyFile,
                         String program, List<String> args, String workingDirectory, IdentityRef identity,
                         Map<String, String> callerEnvironment, Stdio stdio) {
        this(isolation, pinnedBackend, policyFile, program, args, workingDirectory, identity, callerEnvironment, stdio,
                true);
    }

    /** The same request with transport mediation switched on or off. */
    public LaunchRequest withTransportMediation(boolean on) {
        return new LaunchRequest(isolation, pinnedBackend, policyFile, program, args, workingDirectory, identity,
                callerEnvironment, stdio, on, verify);
    }

    /** The same request with {@code --verify} on or off. */
    public LaunchRequest withVerify(boolean on) {
        return new LaunchRequest(isolation, pinnedBackend, policyFile, program, args, workingDirectory, identity,
                callerEnvironment, stdio, transportMediation, on);
    }

    @Override
    public String toString() {
        return "LaunchRequest[isolation=" + isolation + ", backend=" + pinnedBackend + ", policy=" + policyFile
                + ", program=" + program + ", args=" + args.size() + ", transportMediation=" + transportMediation + ", verify=" + verify + "]";
    }
}
