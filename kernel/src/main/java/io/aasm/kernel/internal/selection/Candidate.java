package io.aasm.kernel.internal.selection;

import io.aasm.kernel.internal.negotiation.Negotiation;
import io.aasm.kernel.internal.negotiation.Negotiator;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.PlatformBoundary;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.plan.PlanResult;
import io.aasm.ports.plan.UnmetRequirement;
import io.aasm.ports.report.CandidateVerdict;
import io.aasm.ports.report.ConsideredBackend;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One backend evaluated for one launch: identity, capabilities narrowed to the spec, and the
 * shared negotiation. Every call into the backend is guarded; a throw is a verdict, not a crash.
 */
public record Candidate(InstalledBackend installed, ConsideredBackend verdict, Optional<BackendIdentity> identity,
                        Optional<BackendCapabilities> capabilities, Optional<Negotiation> negotiation) {

    public Candidate {
        Objects.requireNonNull(installed);
        Objects.requireNonNull(verdict);
        Objects.requireNonNull(identity);
        Objects.requireNonNull(capabilities);
        Objects.requireNonNull(negotiation);
    }

    public boolean selected() {
        return verdict.verdict() == CandidateVerdict.SELECTED;
    }

    public Optional<String> unavailableReason() {
        return negotiation.flatMap(n -> n.result() instanceof PlanResult.Refused r
                ? r.refusal().backendUnavailable() : Optional.empty());
    }

    /** {@code boundary}: the platform boundary the isolation class asks for; empty for {@code auto}. */
    static Candidate evaluate(InstalledBackend b, ExecutionSpec spec, IsolationClass isolation,
                              Optional<PlatformBoundary> boundary, Negotiator negotiator) {
        String id = b.id();
        Guarded<BackendIdentity> identity = Guarded.call("identity()", () -> b.backend().identity());
        if (identity instanceof Guarded.Fault<BackendIdentity> f) {
            return fault(b, f.message(), Optional.empty(), Optional.empty());
        }
        BackendIdentity who = ((Guarded.Ok<BackendIdentity>) identity).value();
        Guarded<BackendPlan> planned = Guarded.call("plan()", () -> b.backend().plan(spec));
        if (planned instanceof Guarded.Fault<BackendPlan> f) {
            return fault(b, f.message(), Optional.of(who), Optional.empty());
        }
        BackendPlan bp = ((Guarded.Ok<BackendPlan>) planned).value();
        Guarded<BackendCapabilities> caps = Guarded.call("plan().capabilities()", bp::capabilities);
        if (caps instanceof Guarded.Fault<BackendCapabilities> f) {
            return fault(b, f.message(), Optional.of(who), Optional.empty());
        }
        // a mediated launch needs a plan that carries the mediation; any other backend's egress is unsupported here
        BackendCapabilities c = io.aasm.kernel.internal.transport.TransportFit.narrow(spec, id, bp,
                ((Guarded.Ok<BackendCapabilities>) caps).value());
        Negotiation n;
        try {
            n = negotiator.negotiate(spec, who, c, bp, req -> {
                try {
                    List<String> steps = bp.steps(req);
                    // copy here so a malformed answer (null list or element) is this backend's fault
                    return steps == null ? List.of() : List.copyOf(steps);
                } catch (RuntimeException | LinkageError e) {
                    throw new LoweringFault(Guarded.describe("plan().steps(" + req.domain().token() + ")", e));
                }
            });
        } catch (LoweringFault e) {
            return fault(b, e.getMessage(), Optional.of(who), Optional.of(c));
        }
        if (n.result() instanceof PlanResult.Refused r) {
            if (r.refusal().backendUnavailable().isPresent()) {
                return new Candidate(b, new ConsideredBackend(id, CandidateVerdict.REJECTED_UNAVAILABLE,
                        "unavailable: " + r.refusal().backendUnavailable().get(), List.of()),
                        Optional.of(who), Optional.of(c), Optional.of(n));
            }
            List<UnmetRequirement> unmet = r.refusal().unmet();
            String detail = "requirements unmet: " + unmet.stream()
                    .map(u -> u.requirement().domain().token() + " (" + u.reason().token() + ")")
                    .collect(Collectors.joining(", "));
            List<CapabilityDomain> domains = unmet.stream().map(u -> u.requirement().domain()).distinct().toList();
            return new Candidate(b, new ConsideredBackend(id, CandidateVerdict.REJECTED_REQUIREMENTS_UNMET, detail,
                    domains), Optional.of(who), Optional.of(c), Optional.of(n));
        }
        if (boundary.isPresent() && c.platformBoundary() != boundary.get()) {
            return new Candidate(b, new ConsideredBackend(id, CandidateVerdict.REJECTED_UNAVAILABLE,
                    "platform boundary " + c.platformBoundary().token() + " is not a " + isolation.token()
                            + " boundary (isolation class " + isolation.token() + " needs " + boundary.get().token()
                            + ")", List.of()),
                    Optional.of(who), Optional.of(c), Optional.of(n));
        }
        PlanResult.Planned p = (PlanResult.Planned) n.result();
        return new Candidate(b, new ConsideredBackend(id, CandidateVerdict.SELECTED,
                "plans every required requirement (plan posture " + p.plan().posture().token() + ")", List.of()),
                Optional.of(who), Optional.of(c), Optional.of(n));
    }

    static ConsideredBackend notInstalled(String id) {
        return new ConsideredBackend(id, CandidateVerdict.NOT_INSTALLED, "not installed", List.of());
    }

    private static Candidate fault(InstalledBackend b, String message, Optional<BackendIdentity> who,
                                   Optional<BackendCapabilities> caps) {
        return new Candidate(b, new ConsideredBackend(b.id(), CandidateVerdict.REJECTED_BACKEND_FAULT,
                "backend fault: " + message, List.of()), who, caps, Optional.empty());
    }

    /** Carries a throwing lower() out of the pure negotiation. */
    private static final class LoweringFault extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LoweringFault(String message) {
            super(message, null, false, false);
        }
    }
}
