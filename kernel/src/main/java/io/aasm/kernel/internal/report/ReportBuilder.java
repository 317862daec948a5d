package io.aasm.kernel.internal.report;

import io.aasm.kernel.internal.report.DomainRows.Basis;
import io.aasm.kernel.internal.selection.Candidate;
import io.aasm.kernel.internal.selection.Selection;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.backend.LaunchPosture;
import io.aasm.ports.plan.PlanResult;
import io.aasm.ports.backend.PlannedRequirement;
import io.aasm.ports.plan.UnmetRequirement;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.PolicyLowering;
import io.aasm.ports.report.BackendSelection;
import io.aasm.ports.evidence.DescriptorInventory;
import io.aasm.ports.report.DomainProjection;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.evidence.ProcessAuthority;
import io.aasm.ports.report.RefusalEntry;
import io.aasm.ports.report.ReportStage;
import io.aasm.ports.report.ReportedPosture;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Builds pre-launch reports for the three decisions (no boundary, plan, refusal). Posture rules:
 * an empty requirement set is never READY, and READY without least authority is DEGRADED.
 */
public final class ReportBuilder {

    public IsolationReport noBoundary(ReportContext ctx) {
        List<DomainProjection> rows = DomainRows.build(ctx.lowering(), Basis.NO_BACKEND, List.of(), Optional.empty(),
                Optional.empty());
        return assemble(ctx, ReportedPosture.NO_BOUNDARY,
                Optional.of("no execution-isolation boundary: the program runs with the caller's full authority"),
                Optional.empty(), Optional.empty(), Optional.empty(), rows, List.of());
    }

    /**
     * {@code descriptors} is the sealing and {@code authority} the privileges the backend guarantees for
     * this plan; without either the launch cannot be least-authority, so a READY plan is reported DEGRADED.
     */
    public IsolationReport fromPlan(ReportContext ctx, EnforcementPlan plan, Optional<BackendCapabilities> caps,
                                    Optional<BackendSelection> selection, Optional<DescriptorInventory> descriptors,
                                    Optional<ProcessAuthority> authority) {
        List<DomainProjection> rows = DomainRows.build(ctx.lowering(), Basis.PLAN, plan.planned(), caps,
                Optional.empty());
        ReportedPosture posture;
        Optional<String> detail;
        if (plan.planned().isEmpty()) {
            posture = ReportedPosture.NO_BOUNDARY;
            detail = Optional.of("the plan carries no requirement; an empty requirement set is not a boundary");
        } else if (plan.posture() == LaunchPosture.DEGRADED) {
            posture = ReportedPosture.DEGRADED;
            detail = Optional.of("at least one requirement is degraded or an optional requirement is unmet");
        } else {
            posture = ReportedPosture.READY;
            detail = Optional.empty();
        }
        IsolationReport report = assemble(ctx, posture, detail, Optional.of(plan.backend()), Optional.empty(),
                selection, rows, List.of());
        return lowerForAuthority(Reports.withAuthority(report, descriptors, authority));
    }

    /** A refusal that a selection produced (pinned backend refused, walk exhausted, unknown id). */
    public IsolationReport fromSelection(ReportContext ctx, Selection.NotChosen refused) {
        List<RefusalEntry> entries = new ArrayList<>(refused.launchWide());
        Optional<Candidate> backend = refused.backend();
        List<PlannedRequirement> outcomes = backend.flatMap(Candidate::negotiation).map(n -> n.outcomes())
                .orElse(List.of());
        Optional<String> unavailable = backend.flatMap(Candidate::unavailableReason);
        backend.flatMap(Candidate::negotiation).ifPresent(n -> {
            if (n.result() instanceof PlanResult.Refused r) {
                for (UnmetRequirement u : r.refusal().unmet()) {
                    entries.add(new RefusalEntry(Optional.of(u.requirement().domain()), u.reason().token(),
                            u.detail()));
                }
            }
        });
        boolean answered = backend.flatMap(Candidate::capabilities).isPresent() && backend.get().negotiation()
                .isPresent();
        List<DomainProjection> rows = DomainRows.build(ctx.lowering(),
                answered ? Basis.REFUSED_BY_BACKEND : Basis.NO_BACKEND, outcomes,
                backend.flatMap(Candidate::capabilities), unavailable);
        Optional<BackendIdentity> identity = backend.flatMap(Candidate::identity);
        return assemble(ctx, ReportedPosture.REFUSED, Optional.of(firstLine(refused.message())), identity,
                unavailable, Optional.of(refused.record()), rows, entries);
    }

    /** A launch-wide refusal decided before any backend was asked (e.g. no_requirements_lowered). */
    public IsolationReport refusedBeforeSelection(ReportContext ctx, RefusalEntry reason) {
        List<DomainProjection> rows = DomainRows.build(ctx.lowering(), Basis.NO_BACKEND, List.of(), Optional.empty(),
                Optional.empty());
        return assemble(ctx, ReportedPosture.REFUSED, Optional.of(reason.detail()), Optional.empty(),
                Optional.empty(), Optional.empty(), rows, List.of(reason));
    }

    private static IsolationReport lowerForAuthority(IsolationReport report) {
        if (report.posture() == ReportedPosture.READY && !report.leastAuthority()) {
            return Reports.withPosture(report, ReportedPosture.DEGRADED,
                    Optional.of("least authority not established: " + String.join("; ", report.leastAuthorityGaps())));
        }
        return report;
    }

    private static IsolationReport assemble(ReportContext ctx, ReportedPosture posture, Optional<String> detail,
                                            Optional<BackendIdentity> backend, Optional<String> unavailable,
                                            Optional<BackendSelection> selection, List<DomainProjection> rows,
                                            List<RefusalEntry> refusals) {
        List<ControlRequirement> requested = ctx.lowering().map(PolicyLowering::requirements).orElse(List.of());
        List<String> unmapped = ctx.lowering().map(PolicyLowering::unmapped).orElse(List.of());
        return new IsolationReport(IsolationReport.SCHEMA, ReportStage.PRE_LAUNCH, posture, detail, ctx.isolation(),
                ctx.identity(), ctx.target(), backend, unavailable, selection, ctx.policyOrigin(), requested, rows,
                refusals, unmapped, ctx.credentials(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty());
    }

    private static String firstLine(String message) {
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
