package io.aasm.kernel.internal.service;

import io.aasm.ports.trace.LaunchStages;
import io.aasm.kernel.internal.selection.Guarded;
import io.aasm.ports.evidence.DescriptorInventory;

import io.aasm.kernel.internal.launch.ProgramResolver;
import io.aasm.kernel.internal.lowering.CredentialPlan;
import io.aasm.kernel.internal.lowering.PolicyLowerer;
import io.aasm.kernel.internal.lowering.WorkingDirectoryGrants;
import io.aasm.kernel.internal.negotiation.Negotiator;
import io.aasm.kernel.internal.report.ReportBuilder;
import io.aasm.kernel.internal.report.ReportContext;
import io.aasm.kernel.internal.selection.InstalledBackend;
import io.aasm.kernel.internal.selection.Selection;
import io.aasm.kernel.internal.selection.Selector;
import io.aasm.kernel.internal.selection.WalkOrder;
import io.aasm.kernel.internal.transport.TransportDecider;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.kernel.LaunchRequest;
import io.aasm.ports.policy.DomainCoverage;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.PolicyLoad;
import io.aasm.ports.policy.PolicyLowering;
import io.aasm.ports.policy.PolicySource;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.evidence.ProcessAuthority;
import io.aasm.ports.report.RefusalEntry;
import io.aasm.ports.report.TargetSummary;
import java.util.List;
import java.util.Optional;

/**
 * decide(): policy, lowering, program resolution, selection, negotiation and the pre-launch report,
 * against snapshots of what is installed. Nothing here starts a process.
 */
final class Decider {

    private final PolicyLoader loader = new PolicyLoader();
    private final PolicyLowerer lowerer = new PolicyLowerer();
    private final ProgramResolver resolver = new ProgramResolver();
    private final Selector selector = new Selector(new Negotiator());
    private final ReportBuilder reports = new ReportBuilder();
    private final TransportDecider transport = new TransportDecider();


    LaunchDecision decide(LaunchRequest request, List<PolicySource> sources, List<InstalledBackend> backends,
                   WalkOrder order) {
        return decide(request, sources, backends, order, List.of(), false);
    }

    /** {@code mediator}: whether a transport mediator is installed. */
    LaunchDecision decide(LaunchRequest request, List<PolicySource> sources, List<InstalledBackend> backends,
                   WalkOrder order, List<String> protectedPaths, boolean mediator) {
        PolicyLoad load = loader.load(request.policyFile(), sources);
        LaunchStages.mark("policy_load");
        if (load instanceof PolicyLoad.Rejected rejected) {
            return new LaunchDecision.PolicyRejected(request.policyFile().orElse(PolicyLoader.NO_POLICY),
                    rejected.problems());
        }
        PolicyLowering lowering = lowerer.lower(((PolicyLoad.Loaded) load).policy());
        IsolationClass isolation = request.isolation().or(lowering::isolation).orElse(IsolationClass.NONE);
        WorkingDirectoryGrants.Bound bound = WorkingDirectoryGrants.bind(lowering, request.workingDirectory(),
                request.callerEnvironment());
        if (bound instanceof WorkingDirectoryGrants.Bound.Ok ok) {
            lowering = ok.lowering();
        }

        LaunchStages.mark("policy_lower");
        String program = request.program();
        Optional<ExitDisposition.NotStarted> failure = Optional.empty();
        ProgramResolver.Resolution r = resolver.resolve(request.program(), request.workingDirectory(),
                request.callerEnvironment());
        if (r instanceof ProgramResolver.Resolution.Found f) {
            program = f.path();
        } else {
            ProgramResolver.Resolution.Failed failed = (ProgramResolver.Resolution.Failed) r;
            failure = Optional.of(new ExitDisposition.NotStarted(failed.kind(), failed.detail()));
        }
        CredentialPlan credentials = isolation == IsolationClass.NONE
                ? CredentialPlan.unconfined(request.callerEnvironment())
                : CredentialPlan.confined(request.callerEnvironment(), lowering.requirements());
        TransportDecider.Outcome mediation = transport.decide(request.transportMediation(), isolation,
                lowering.requirements(), mediator);
        ExecutionSpec spec = new ExecutionSpec(program, request.args(), request.workingDirectory(),
                request.identity(), lowering.requirements(), credentials.environment(), credentials.posture(),
                request.stdio(), protectedPaths, mediation instanceof TransportDecider.Outcome.Decided d
                ? d.transport() : io.aasm.ports.transport.TransportMediation.notRequested(), request.verify());
        ReportContext ctx = new ReportContext(isolation, request.identity(),
                new TargetSummary(program, request.args().size()), lowering.origin(), Optional.of(lowering),
                credentials.posture());
        if (bound instanceof WorkingDirectoryGrants.Bound.TooWide wide && isolation != IsolationClass.NONE) {
            return refused(ctx, new RefusalEntry(Optional.of(CapabilityDomain.FILESYSTEM_WRITE),
                    "working_directory_too_wide", wide.message()), wide.message());
        }

        if (mediation instanceof TransportDecider.Outcome.Unavailable u) {
            return refused(ctx, new RefusalEntry(Optional.of(CapabilityDomain.NETWORK_EGRESS),
                    "transport_mediation_unavailable", u.message()), u.message());
        }
        if (isolation == IsolationClass.NONE) {
            if (request.pinnedBackend().isPresent()) {
                // Neutral words and the token: the face that took the request adds its own advice.
                String message = "the request pins backend " + request.pinnedBackend().get()
                        + " but its isolation class is none, which establishes no boundary for a backend to"
                        + " enforce [backend_pinned_without_boundary]";
                return refused(ctx, new RefusalEntry(Optional.empty(), "backend_pinned_without_boundary", message),
                        message);
            }
            return new LaunchDecision.Unconfined(reports.noBoundary(ctx), spec, failure);
        }
        if (lowering.requirements().isEmpty()) {
            long inexpressible = lowering.domains().stream()
                    .filter(d -> d.coverage() instanceof DomainCoverage.PolicyCannotExpress).count();
            String message = "the effective policy (" + lowering.origin() + ") lowered to no execution requirement ("
                    + inexpressible + " of " + CapabilityDomain.values().length + " capability domains cannot be"
                    + " expressed by the policy schema at all); an unrestricted boundary is not what an empty"
                    + " requirement set means";
            return refused(ctx, new RefusalEntry(Optional.empty(), "no_requirements_lowered", message), message);
        }
        LaunchStages.mark("resolve");
        Selection selection = selector.select(isolation, request.pinnedBackend(), spec, backends, order);
        LaunchStages.mark("negotiate");
        if (selection instanceof Selection.Chosen chosen) {
            // A backend that cannot say how it seals descriptors gets no least-authority credit.
            Guarded<Optional<DescriptorInventory>> planned = Guarded.call("plannedDescriptors()",
                    () -> chosen.plan().backendPlan().plannedDescriptors());
            Optional<DescriptorInventory> sealing = planned instanceof Guarded.Ok<Optional<DescriptorInventory>> ok
                    ? ok.value() : Optional.empty();
            // Nor does one that cannot say which privileges the program will hold.
            Guarded<Optional<ProcessAuthority>> held = Guarded.call("plannedAuthority()",
                    () -> chosen.plan().backendPlan().plannedAuthority());
            Optional<ProcessAuthority> privileges = held instanceof Guarded.Ok<Optional<ProcessAuthority>> okay
                    ? okay.value() : Optional.empty();
            IsolationReport report = reports.fromPlan(ctx, chosen.plan(), chosen.candidate().capabilities(),
                    Optional.of(chosen.record()), sealing, privileges);
            LaunchStages.mark("report_pre");
            return new LaunchDecision.Confined(chosen.plan(), report, failure);
        }
        Selection.NotChosen refused = (Selection.NotChosen) selection;
        return new LaunchDecision.Refused(reports.fromSelection(ctx, refused), refused.message());
    }

    PolicyLowering lower(io.aasm.ports.policy.Policy policy) {
        return lowerer.lower(policy);
    }

    PolicyLoad load(Optional<String> file, List<PolicySource> sources) {
        return loader.load(file, sources);
    }

    private LaunchDecision refused(ReportContext ctx, RefusalEntry entry, String message) {
        return new LaunchDecision.Refused(reports.refusedBeforeSelection(ctx, entry), message);
    }
}
