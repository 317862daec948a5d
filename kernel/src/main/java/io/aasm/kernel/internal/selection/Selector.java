package io.aasm.kernel.internal.selection;

import io.aasm.kernel.internal.negotiation.Negotiator;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.plan.PlanResult;
import io.aasm.ports.plan.UnmetRequirement;
import io.aasm.ports.capability.PlatformBoundary;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.report.BackendSelection;
import io.aasm.ports.report.CandidateVerdict;
import io.aasm.ports.report.ConsideredBackend;
import io.aasm.ports.report.RefusalEntry;
import io.aasm.ports.report.UntrustedText;
import io.aasm.ports.report.SelectionMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Picks the backend for a launch that asked for a boundary (auto walk, process walk, or a pinned
 * id). The walk stops at the first candidate whose negotiation plans the launch; later
 * candidates are not asked anything. There is no unconfined fallback: every other ending is a
 * refusal naming each candidate and why.
 */
public final class Selector {

    private final Negotiator negotiator;

    public Selector(Negotiator negotiator) {
        this.negotiator = negotiator;
    }

    public Selection select(IsolationClass isolation, Optional<String> pinned, ExecutionSpec spec,
                            List<InstalledBackend> installed, WalkOrder order) {
        if (isolation == IsolationClass.NONE) {
            throw new IllegalArgumentException("selection is only for a requested boundary");
        }
        Optional<PlatformBoundary> boundary = boundaryOf(isolation);
        if (pinned.isPresent()) {
            return pinned(pinned.get(), spec, installed, isolation, boundary);
        }
        return walk(isolation, spec, installed, order, boundary);
    }

    /** The platform boundary an isolation class stands for; {@code auto} takes any. */
    static Optional<PlatformBoundary> boundaryOf(IsolationClass isolation) {
        return switch (isolation) {
            case PROCESS -> Optional.of(PlatformBoundary.SHARED_HOST_KERNEL);
            case CONTAINER -> Optional.of(PlatformBoundary.CONTAINER);
            case VM -> Optional.of(PlatformBoundary.SEPARATE_KERNEL);
            case AUTO, NONE -> Optional.empty();
        };
    }

    private Selection pinned(String id, ExecutionSpec spec, List<InstalledBackend> installed, IsolationClass isolation,
                             Optional<PlatformBoundary> boundary) {
        Optional<InstalledBackend> match = installed.stream().filter(b -> b.id().equals(id)).findFirst();
        if (match.isEmpty()) {
            String ids = installed.isEmpty() ? "<none>"
                    : installed.stream().map(InstalledBackend::id).sorted().collect(Collectors.joining(", "));
            String message = "the pinned backend " + id + " is not installed here (installed backends: " + ids
                    + ") [backend_not_installed]";
            BackendSelection record = new BackendSelection(SelectionMode.EXPLICIT, List.of(Candidate.notInstalled(id)));
            return new Selection.NotChosen(message,
                    List.of(new RefusalEntry(Optional.empty(), "backend_not_installed", message)), Optional.empty(),
                    record);
        }
        Candidate c = Candidate.evaluate(match.get(), spec, isolation, boundary, negotiator);
        BackendSelection record = new BackendSelection(SelectionMode.EXPLICIT, List.of(c.verdict()));
        if (c.selected()) {
            return chosen(c, record);
        }
        return new Selection.NotChosen(pinnedMessage(c), pinnedEntries(c), Optional.of(c), record);
    }

    private Selection walk(IsolationClass isolation, ExecutionSpec spec, List<InstalledBackend> installed,
                           WalkOrder order, Optional<PlatformBoundary> boundary) {
        Map<String, InstalledBackend> byId = installed.stream()
                .collect(Collectors.toMap(InstalledBackend::id, Function.identity(), (a, b) -> a));
        SelectionMode mode = boundary.isPresent() ? SelectionMode.DEFAULT : SelectionMode.AUTOMATIC;
        List<ConsideredBackend> considered = new ArrayList<>();
        for (String id : order.candidates(installed)) {
            InstalledBackend b = byId.get(id);
            if (b == null) {
                considered.add(Candidate.notInstalled(id));
                continue;
            }
            Candidate c = Candidate.evaluate(b, spec, isolation, boundary, negotiator);
            considered.add(c.verdict());
            if (c.selected()) {
                return chosen(c, new BackendSelection(mode, considered));
            }
        }
        StringBuilder message = new StringBuilder("refusing to launch: the ").append(isolation.token())
                .append(" walk considered every candidate backend and none of them can plan this launch's lowered"
                        + " requirements [no_backend_eligible]");
        List<RefusalEntry> entries = new ArrayList<>();
        if (considered.isEmpty()) {
            message.append("\n  - <no candidate>: no backend is installed and no candidate is configured");
        }
        for (ConsideredBackend c : considered) {
            message.append("\n  - ").append(c.id()).append(": ").append(UntrustedText.clean(c.detail()));
            entries.add(new RefusalEntry(Optional.empty(), c.verdict().token(), c.id() + ": " + c.detail()));
        }
        entries.add(0, new RefusalEntry(Optional.empty(), "no_backend_eligible",
                considered.size() + " candidate(s) considered, none can plan this launch"));
        return new Selection.NotChosen(message.toString(), entries, Optional.empty(),
                new BackendSelection(mode, considered));
    }

    private static Selection chosen(Candidate c, BackendSelection record) {
        PlanResult.Planned p = (PlanResult.Planned) c.negotiation().orElseThrow().result();
        return new Selection.Chosen(c, p.plan(), record);
    }

    private static String pinnedMessage(Candidate c) {
        String id = c.installed().id();
        ConsideredBackend v = c.verdict();
        if (v.verdict() == CandidateVerdict.REJECTED_REQUIREMENTS_UNMET) {
            PlanResult.Refused r = (PlanResult.Refused) c.negotiation().orElseThrow().result();
            StringBuilder sb = new StringBuilder("the `").append(id)
                    .append("` backend refused this launch before anything started");
            for (UnmetRequirement u : r.refusal().unmet()) {
                sb.append("\n  - ").append(u.requirement().domain().token())
                        .append(": ").append(UntrustedText.clean(u.detail()))
                        .append(" [").append(u.reason().token()).append(']');
            }
            return sb.toString();
        }
        return "refusing to launch: an execution-isolation boundary was requested and the `" + id
                + "` backend cannot be selected on this host — " + UntrustedText.clean(v.detail())
                + ". There is no fallback to an unconfined launch [" + pinnedEntries(c).stream()
                        .map(RefusalEntry::reason).findFirst().orElse(v.verdict().token()) + "]";
    }

    private static List<RefusalEntry> pinnedEntries(Candidate c) {
        ConsideredBackend v = c.verdict();
        return switch (v.verdict()) {
            case REJECTED_BACKEND_FAULT -> List.of(new RefusalEntry(Optional.empty(), "backend_fault", v.detail()));
            case REJECTED_UNAVAILABLE -> List.of(new RefusalEntry(Optional.empty(), "backend_unavailable",
                    v.detail()));
            default -> List.of();
        };
    }
}
