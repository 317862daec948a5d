package io.aasm.cli.internal;

import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.report.RefusalEntry;
import io.aasm.ports.transport.TransportMediation;
import java.io.PrintStream;
import java.util.Optional;

/**
 * The dry run's {@code --- protection ---} section: whether the launch's traffic would be mediated, as the kernel
 * decided it (read from the decision, never inferred from the boundary below it), and whether {@code --no-proxy}
 * was given. Two independent controls, two sections.
 */
final class ProtectionSection {
    static final String HEADER = "--- protection ---";
    static final String VARIABLES = "HTTP_PROXY HTTPS_PROXY ALL_PROXY http_proxy https_proxy all_proxy NO_PROXY no_proxy";

    private ProtectionSection() {
    }

    static void print(PrintStream out, LaunchDecision decision, boolean noProxy) {
        out.println(HEADER);
        Optional<TransportMediation> transport = transport(decision);
        if (decision instanceof LaunchDecision.Refused r) {
            Optional<RefusalEntry> unavailable = r.report().refusals().stream()
                    .filter(e -> e.reason().equals("transport_mediation_unavailable")).findFirst();
            out.println("transport_mediation: " + unavailable.map(e -> "unavailable — " + e.detail())
                    .orElse("none — the launch would be refused (see the warnings), so nothing would run"));
        } else if (decision instanceof LaunchDecision.Confined c && c.plan().mediated()) {
            TransportMediation t = c.plan().spec().transport();
            out.println("transport_mediation: on — " + t.detail());
            out.println("proxy: 127.0.0.1:" + t.boundaryPort() + " inside the boundary, relayed to a session of the"
                    + " supervisor's proxy of this launch alone");
            out.println("proxy_variables: " + VARIABLES);
            out.println("decision_records: one per connection attempt, in the post-run report's evidence and the"
                    + " session's decision log");
        } else if (decision instanceof LaunchDecision.Confined c && c.plan().spec().transport().mediated()) {
            out.println("transport_mediation: off — requested, but the selected backend does not carry it for this"
                    + " launch (its network egress requirement is not enforced): nothing is mediated");
        } else if (transport.isPresent() && transport.get().mediated()) {
            out.println("transport_mediation: on — " + transport.get().detail());
            out.println("proxy: a loopback listener of the supervisor's proxy for this launch alone, with credentials"
                    + " in the proxy variables");
            out.println("proxy_variables: " + VARIABLES);
            out.println("decision_records: one per connection attempt through the proxy, in the post-run report's"
                    + " evidence and the session's decision log");
        } else {
            transport.ifPresent(t -> out.println("transport_mediation: " + (t.state() == TransportMediation.State.OFF
                    ? "off — " : "not needed — ") + t.detail()));
        }
        out.println("no_proxy_flag: " + (noProxy ? "given (transport mediation switched off for this launch)"
                : "not given"));
        out.println("independent_of_isolation: yes — read the execution isolation section below for the boundary");
    }

    private static Optional<TransportMediation> transport(LaunchDecision d) {
        if (d instanceof LaunchDecision.Confined c) {
            return Optional.of(c.plan().spec().transport());
        }
        if (d instanceof LaunchDecision.Unconfined u) {
            return Optional.of(u.spec().transport());
        }
        return Optional.empty();
    }
}
