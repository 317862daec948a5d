package io.aasm.report.text.internal;

import static io.aasm.ports.capability.CapabilityDomain.*;

import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Provenance;
import io.aasm.ports.backend.ProvenanceStatus;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.evidence.EvidenceBasis;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.plan.AchievedControl;
import io.aasm.ports.plan.RefusalReason;
import io.aasm.ports.policy.*;
import io.aasm.ports.report.*;
import java.util.*;
import java.util.function.UnaryOperator;

/**
 * Hand-built reports shared by the golden tests. This file is duplicated byte for byte (bar the
 * package line) in adapter-report-text and adapter-report-json, so every format renders the same data.
 */
final class Fixtures {
    static final List<String> NAMES = List.of("no_boundary", "ready", "degraded", "refused", "post_run", "ambient",
            "unavailable", "not_derived");

    private Fixtures() {
    }

    static IsolationReport byName(String name) {
        return switch (name) {
            case "no_boundary" -> noBoundary();
            case "ready" -> ready();
            case "degraded" -> degraded();
            case "refused" -> refused();
            case "post_run" -> postRun();
            case "ambient" -> ambient();
            case "unavailable" -> unavailable();
            case "not_derived" -> notDerived();
            default -> throw new IllegalArgumentException(name);
        };
    }

    // ---- building blocks -------------------------------------------------------------------

    static final Scope.Limits LIMITS = new Scope.Limits(OptionalLong.of(536870912L), OptionalLong.of(30),
            OptionalLong.of(60), OptionalLong.of(256), OptionalLong.empty(), OptionalLong.of(128));

    static ControlRequirement req(CapabilityDomain d, Scope s) {
        return ControlRequirement.strict(d, s);
    }

    static ControlRequirement req(CapabilityDomain d, RequirementPosture p, Scope s) {
        return new ControlRequirement(d, RequirementIntent.PREVENT_BEFORE_EFFECT, p, DescendantRequirement.PROCESS_TREE, s);
    }

    static Scope paths(String... p) {
        return new Scope.Paths(List.of(p));
    }

    static EgressGrant tcp(String host, int from, int to) {
        return new EgressGrant(Protocol.TCP, host, from, to);
    }

    static DomainProjection row(CapabilityDomain d, RequestedControl rq, ControlState st, ClaimTerm c, EvidenceBasis e,
                                String mechanism, List<String> limitations, List<String> gaps) {
        return new DomainProjection(d, rq, st, c, e, mechanism, limitations, gaps);
    }

    static DomainProjection prevented(ControlRequirement r, String mechanism, String... limitations) {
        return row(r.domain(), new RequestedControl.Stated(r),
                new ControlState.Prevention(DecisionTiming.PRE, DescendantCoverage.PROCESS_TREE),
                ClaimTerm.PLANNED, EvidenceBasis.NONE, mechanism, List.of(limitations), List.of());
    }

    static final List<String> NODES = List.of("filesystem.read", "filesystem.write", "network.egress",
            "network.name_resolution", "syscalls", "process", "ipc", "credentials", "resources");

    static RequestedControl notStated(CapabilityDomain d) {
        String dflt = d == CREDENTIAL ? "environment starts empty; nothing delegated" : "no control requested";
        return new RequestedControl.NotStated(NODES.get(d.ordinal()), dflt);
    }

    static DomainProjection unmeasured(CapabilityDomain d, RequestedControl rq, UnmeasuredReason why, String detail) {
        return row(d, rq, new ControlState.Unmeasured(why, detail), ClaimTerm.UNMEASURED, EvidenceBasis.NONE,
                "", List.of(), List.of());
    }

    /** Nine rows: the given ones, and "not stated, no control requested" for every other domain. */
    static List<DomainProjection> rows(DomainProjection... given) {
        Map<CapabilityDomain, DomainProjection> byDomain = new EnumMap<>(CapabilityDomain.class);
        for (DomainProjection p : given) {
            byDomain.put(p.domain(), p);
        }
        List<DomainProjection> out = new ArrayList<>();
        for (CapabilityDomain d : CapabilityDomain.values()) {
            out.add(byDomain.getOrDefault(d, unmeasured(d, notStated(d), UnmeasuredReason.NO_CONTROL_REQUESTED,
                    "the policy states nothing for this domain")));
        }
        return out;
    }

    static BackendIdentity nativeBackend() {
        return new BackendIdentity("aasm-native", "0.1.0", new Provenance("this repository", "Apache-2.0", false,
                Optional.empty(), ProvenanceStatus.FIRST_PARTY));
    }

    static BackendIdentity sandlock() {
        return new BackendIdentity("sandlock", "0.8.6", new Provenance("multikernel/sandlock v0.8.6 release",
                "Apache-2.0", false, Optional.of("3f9a0c1d2e4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff"),
                ProvenanceStatus.VERIFIED));
    }

    static BackendIdentity decider() {
        return new BackendIdentity("example-decider", "0.0.1", new Provenance("src/test of this repository",
                "Apache-2.0", false, Optional.empty(), ProvenanceStatus.FIRST_PARTY));
    }

    static CredentialPosture creds(List<String> removed, List<String> delegated, List<String> ambient) {
        return new CredentialPosture(new TreeSet<>(removed), new TreeSet<>(delegated), new TreeSet<>(ambient));
    }

    static DescriptorInventory cleanFds() {
        return new DescriptorInventory(true, List.of(0, 1, 2), List.of(5, 7), List.of());
    }

    static IsolationReport report(ReportStage stage, ReportedPosture posture, Optional<String> postureDetail,
                                  IsolationClass cls, Optional<BackendIdentity> backend, Optional<String> unavailable,
                                  Optional<BackendSelection> selection, List<ControlRequirement> requested,
                                  List<DomainProjection> domains, List<RefusalEntry> refusals, List<String> unmapped,
                                  CredentialPosture creds, Optional<DescriptorInventory> fds,
                                  Optional<RunOutcome> outcome, Optional<EnforcementEvidence> evidence) {
        IdentityRef who = new IdentityRef("agent-7", Optional.of("platform"), List.of("root-agent", "planner"));
        return new IsolationReport(IsolationReport.SCHEMA, stage, posture, postureDetail, cls, who,
                new TargetSummary("/usr/bin/python3", 2), backend, unavailable, selection, "/etc/aasm/policy.yaml",
                requested, domains, refusals, unmapped, creds, fds, fds.map(f -> authority(stage)), outcome, evidence);
    }

    /** What a backend that drops every capability shows: planned before launch, measured after. */
    static ProcessAuthority authority(ReportStage stage) {
        String none = "0000000000000000";
        return stage == ReportStage.PRE_LAUNCH ? ProcessAuthority.planned("filter", "planned: every capability dropped")
                : new ProcessAuthority(true, none, none, none, none, none, true, "filter (2 filters)",
                "measured: read from the program's own /proc status after execve");
    }

    // ---- the six fixtures ------------------------------------------------------------------

    static IsolationReport noBoundary() {
        ControlRequirement write = req(FILESYSTEM_WRITE, paths("/workspace/build"));
        List<DomainProjection> rows = new ArrayList<>();
        for (CapabilityDomain d : CapabilityDomain.values()) {
            RequestedControl rq = d == FILESYSTEM_WRITE ? new RequestedControl.Stated(write) : notStated(d);
            rows.add(unmeasured(d, rq, UnmeasuredReason.NO_BACKEND_SELECTED, "isolation none selects no backend"));
        }
        return new IsolationReport(IsolationReport.SCHEMA, ReportStage.PRE_LAUNCH, ReportedPosture.NO_BOUNDARY,
                Optional.of("isolation none: the program runs unconfined with the caller's environment"),
                IsolationClass.NONE, IdentityRef.anonymous(), new TargetSummary("/bin/true", 0), Optional.empty(),
                Optional.empty(), Optional.empty(), "<built-in default>", List.of(write), rows, List.of(), List.of(),
                creds(List.of(), List.of(), List.of("HOME", "PATH", "AWS_SECRET_ACCESS_KEY")), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty());
    }

    static List<ControlRequirement> readyRequirements() {
        return List.of(
                req(FILESYSTEM_READ, paths("/usr", "/etc/ssl", "/lib")),
                req(FILESYSTEM_WRITE, paths("/tmp/work")),
                req(SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("ptrace", "mount", "bpf"))),
                req(CREDENTIAL, new Scope.Delegated(List.of("PATH", "LANG", "HOME"))));
    }

    static IsolationReport ready() {
        List<ControlRequirement> r = readyRequirements();
        return report(ReportStage.PRE_LAUNCH, ReportedPosture.READY, Optional.empty(), IsolationClass.PROCESS,
                Optional.of(nativeBackend()), Optional.empty(), Optional.empty(), r,
                rows(prevented(r.get(0), "landlock ruleset (ABI 3)"),
                        prevented(r.get(1), "landlock ruleset (ABI 3)", "truncate is not mediated below ABI 3"),
                        prevented(r.get(2), "seccomp-bpf filter", "x86_64 syscall table only"),
                        prevented(r.get(3), "environment starts empty",
                                "values stay readable through /proc/<pid>/environ")),
                List.of(), List.of(), creds(List.of("AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN"),
                        List.of("PATH", "LANG", "HOME"), List.of()),
                Optional.of(cleanFds()), Optional.empty(), Optional.empty());
    }

    static IsolationReport degraded() {
        ControlRequirement read = req(FILESYSTEM_READ, paths("/usr"));
        ControlRequirement egress = req(NETWORK_EGRESS, RequirementPosture.DEGRADE, new Scope.Egress(List.of(
                tcp(EgressGrant.LOOPBACK, 8080, 8080), tcp("10.0.0.0/8", 443, 443), tcp("example.com", 8000, 8100))));
        ControlRequirement ipc = req(IPC, RequirementPosture.DEGRADE,
                new Scope.IpcGrants(Set.of(IpcChannel.SIGNAL, IpcChannel.ABSTRACT_UNIX)));
        ControlRequirement res = req(RESOURCE, RequirementPosture.OPTIONAL, LIMITS);
        List<ControlRequirement> r = List.of(read, egress, ipc, res);
        return report(ReportStage.PRE_LAUNCH, ReportedPosture.DEGRADED,
                Optional.of("2 control(s) degraded by policy posture; see below"), IsolationClass.AUTO,
                Optional.of(nativeBackend()), Optional.empty(), Optional.empty(), r,
                rows(prevented(read, "landlock ruleset (ABI 3)"),
                        row(NETWORK_EGRESS, new RequestedControl.Stated(egress), new ControlState.Degraded(
                                RequirementIntent.PREVENT_BEFORE_EFFECT, new AchievedControl.Nothing(),
                                RefusalReason.DOMAIN_UNSUPPORTED, "this backend has no network egress mechanism"),
                                ClaimTerm.DEGRADED, EvidenceBasis.NONE, "", List.of(), List.of()),
                        row(NAME_RESOLUTION, new RequestedControl.PolicyCannotExpress(
                                "per-lookup decisions have no policy node"), new ControlState.Unmeasured(
                                UnmeasuredReason.NO_CONTROL_REQUESTED, "nothing to plan"), ClaimTerm.UNMEASURED,
                                EvidenceBasis.NONE, "", List.of(), List.of()),
                        row(IPC, new RequestedControl.Stated(ipc), new ControlState.Degraded(
                                RequirementIntent.PREVENT_BEFORE_EFFECT, new AchievedControl.ObservedOnly(
                                DecisionTiming.POST, DescendantCoverage.PROCESS_TREE), RefusalReason.DECISION_TOO_LATE,
                                "signals are audited after delivery"), ClaimTerm.DEGRADED, EvidenceBasis.NONE,
                                "audit log", List.of("sysv ipc is not scoped"),
                                List.of("abstract unix sockets of other tenants remain addressable")),
                        row(RESOURCE, new RequestedControl.Stated(res), new ControlState.Unsupported(
                                RefusalReason.PREREQUISITE_UNSATISFIED, "no delegated cgroup v2 subtree"),
                                ClaimTerm.UNSUPPORTED, EvidenceBasis.NONE, "", List.of(), List.of())),
                List.of(), List.of("metadata.owner", "audit.retention_days"),
                creds(List.of("AWS_SECRET_ACCESS_KEY"), List.of(), List.of()), Optional.of(cleanFds()),
                Optional.empty(), Optional.empty());
    }

    static IsolationReport refused() {
        ControlRequirement egress = req(NETWORK_EGRESS, new Scope.WholeDomain());
        ControlRequirement hosts = req(NAME_RESOLUTION, new Scope.PinnedHosts(new TreeMap<>(Map.of(
                "example.com", "93.184.216.34", "api.internal", "10.1.2.3"))));
        ControlRequirement proc = req(PROCESS_CREATION, new Scope.ProcessCeiling(64));
        ControlRequirement res = req(RESOURCE, LIMITS);
        ControlRequirement sys = req(SYSCALL, new Scope.Syscalls(SyscallMode.ALLOW, List.of("read", "write", "exit")));
        List<ControlRequirement> r = List.of(egress, hosts, proc, res, sys);
        BackendSelection sel = new BackendSelection(SelectionMode.AUTOMATIC, List.of(
                new ConsideredBackend("sandlock", CandidateVerdict.REJECTED_UNAVAILABLE,
                        "unavailable: no sandlock executable on PATH", List.of()),
                new ConsideredBackend("aasm-native", CandidateVerdict.REJECTED_REQUIREMENTS_UNMET,
                        "requirements unmet", List.of(NETWORK_EGRESS, NAME_RESOLUTION, PROCESS_CREATION, RESOURCE)),
                new ConsideredBackend("aasm-macos-vm", CandidateVerdict.NOT_INSTALLED, "not installed", List.of())));
        List<DomainProjection> stated = new ArrayList<>();
        for (ControlRequirement q : r) {
            stated.add(unmeasured(q.domain(), new RequestedControl.Stated(q), UnmeasuredReason.NO_BACKEND_SELECTED,
                    "no backend could plan this launch"));
        }
        stated.sort(Comparator.comparing(DomainProjection::domain));
        return report(ReportStage.PRE_LAUNCH, ReportedPosture.REFUSED, Optional.empty(), IsolationClass.AUTO,
                Optional.empty(), Optional.empty(), Optional.of(sel), r, rows(stated.toArray(DomainProjection[]::new)),
                List.of(new RefusalEntry(Optional.empty(), "no_backend_eligible",
                                "3 candidate(s) considered, none can plan this launch"),
                        new RefusalEntry(Optional.empty(), "rejected_unavailable",
                                "sandlock: unavailable: no sandlock executable on PATH"),
                        new RefusalEntry(Optional.of(RESOURCE), "prerequisite_unsatisfied",
                                "aasm-native: no delegated cgroup v2 subtree"),
                        new RefusalEntry(Optional.of(NETWORK_EGRESS), "domain_unsupported",
                                "aasm-native: no network egress mechanism"),
                        new RefusalEntry(Optional.of(PROCESS_CREATION), "observe_only_for_prevention_requirement",
                                "aasm-native: process count is only observed"),
                        new RefusalEntry(Optional.of(NAME_RESOLUTION), "no_capability_reported",
                                "aasm-native reported nothing for name_resolution; unknown is not unsupported"),
                        new RefusalEntry(Optional.empty(), "not_installed", "aasm-macos-vm: not installed")),
                List.of(), creds(List.of(), List.of(), List.of()), Optional.empty(), Optional.empty(), Optional.empty());
    }

    static IsolationReport postRun() {
        List<ControlRequirement> r = readyRequirements();
        EnforcementEvidence ev = new EnforcementEvidence("example-decider", List.of(
                new EvidenceRecord(EvidenceKind.CONFIGURED, Optional.of(FILESYSTEM_WRITE), ClaimTerm.PLANNED,
                        "write grant /tmp/work configured"),
                new EvidenceRecord(EvidenceKind.INSTALLED, Optional.empty(), ClaimTerm.PLANNED,
                        "confinement installed before exec"),
                new EvidenceRecord(EvidenceKind.EXERCISED, Optional.of(FILESYSTEM_READ), ClaimTerm.OBSERVED,
                        "program ran under the read ruleset"),
                new EvidenceRecord(EvidenceKind.DECISION, Optional.of(FILESYSTEM_WRITE),
                        ClaimTerm.DENIED_BEFORE_EXECUTION, "openat(/etc/passwd, O_WRONLY) refused with EACCES")));
        List<DomainProjection> nine = rows(
                row(FILESYSTEM_READ, new RequestedControl.Stated(r.get(0)), new ControlState.Prevention(
                        DecisionTiming.PRE, DescendantCoverage.PROCESS_TREE), ClaimTerm.OBSERVED,
                        EvidenceBasis.RUNTIME_WITHOUT_DECISION, "per-decision file rules", List.of(), List.of()),
                row(FILESYSTEM_WRITE, new RequestedControl.Stated(r.get(1)), new ControlState.Prevention(
                        DecisionTiming.PRE, DescendantCoverage.PROCESS_TREE), ClaimTerm.DENIED_BEFORE_EXECUTION,
                        EvidenceBasis.DECISION, "per-decision file rules", List.of(), List.of()),
                prevented(r.get(2), "syscall deny list"),
                row(CREDENTIAL, new RequestedControl.Stated(r.get(3)), new ControlState.ObserveOnly(
                        DecisionTiming.PRE, DescendantCoverage.TARGET_PROCESS_ONLY), ClaimTerm.PLANNED,
                        EvidenceBasis.SETUP_ONLY, "environment starts empty", List.of("names only"), List.of()));
        return report(ReportStage.POST_RUN, ReportedPosture.READY, Optional.empty(), IsolationClass.PROCESS,
                Optional.of(decider()), Optional.empty(), Optional.empty(), r, nine, List.of(), List.of(),
                creds(List.of("GITHUB_TOKEN"), List.of("PATH", "LANG", "HOME"), List.of()),
                Optional.of(cleanFds()), Optional.of(new RunOutcome("exited", 0, "exit code 0")), Optional.of(ev));
    }

    static IsolationReport ambient() {
        ControlRequirement cred = req(CREDENTIAL, RequirementPosture.OPTIONAL,
                new Scope.Delegated(List.of("PATH", "HOME")));
        ControlRequirement write = req(FILESYSTEM_WRITE, new Scope.WholeDomain());
        List<ControlRequirement> r = List.of(write, cred);
        return report(ReportStage.PRE_LAUNCH, ReportedPosture.DEGRADED,
                Optional.of("ambient authority stayed; not least authority"), IsolationClass.PROCESS,
                Optional.of(sandlock()), Optional.empty(),
                Optional.of(new BackendSelection(SelectionMode.EXPLICIT, List.of(new ConsideredBackend(
                        "sandlock", CandidateVerdict.SELECTED, "pinned with --isolation-backend", List.of())))),
                r, rows(prevented(write, "sandlock filesystem rules"),
                        unmeasured(CREDENTIAL, new RequestedControl.Stated(cred), UnmeasuredReason.INCONCLUSIVE,
                                "the backend did not report on the environment")),
                List.of(), List.of(),
                creds(List.of("AWS_SECRET_ACCESS_KEY", "HOME", "SSH_AUTH_SOCK"), List.of("PATH", "HOME"),
                        List.of("SSH_AUTH_SOCK", "KUBECONFIG")),
                Optional.of(new DescriptorInventory(false, List.of(2, 0, 1), List.of(), List.of(
                        "fd 9: socket (inherited, could not be closed)"))),
                Optional.empty(), Optional.empty());
    }

    static IsolationReport unavailable() {
        ControlRequirement write = req(FILESYSTEM_WRITE, paths("/workspace/build", "/tmp"));
        List<DomainProjection> nine = new ArrayList<>();
        for (CapabilityDomain d : CapabilityDomain.values()) {
            RequestedControl rq = d == FILESYSTEM_WRITE ? new RequestedControl.Stated(write) : notStated(d);
            nine.add(unmeasured(d, rq, UnmeasuredReason.NO_BACKEND_SELECTED, "the pinned backend is unavailable"));
        }
        String why = "no sandlock executable on PATH; install it or set AA_SANDLOCK_BIN";
        return report(ReportStage.PRE_LAUNCH, ReportedPosture.REFUSED, Optional.empty(), IsolationClass.PROCESS,
                Optional.empty(), Optional.of(why), Optional.of(new BackendSelection(SelectionMode.EXPLICIT,
                        List.of(new ConsideredBackend("sandlock", CandidateVerdict.REJECTED_UNAVAILABLE, why,
                                List.of())))), List.of(write), nine,
                List.of(new RefusalEntry(Optional.empty(), "backend_unavailable", "sandlock: " + why)), List.of(),
                creds(List.of(), List.of(), List.of()), Optional.empty(), Optional.empty(), Optional.empty());
    }

    static IsolationReport notDerived() {
        List<DomainProjection> nine = new ArrayList<>();
        for (CapabilityDomain d : CapabilityDomain.values()) {
            nine.add(unmeasured(d, new RequestedControl.NotDerived(), UnmeasuredReason.NO_BACKEND_SELECTED, ""));
        }
        return report(ReportStage.PRE_LAUNCH, ReportedPosture.REFUSED, Optional.of("preview only: the policy did not load"),
                IsolationClass.AUTO, Optional.empty(), Optional.empty(), Optional.empty(), List.of(), nine,
                List.of(new RefusalEntry(Optional.empty(), "policy_invalid",
                        "/etc/aasm/policy.yaml:4:3: unknown key `filesytem`; did you mean `filesystem`?")),
                List.of(), creds(List.of(), List.of(), List.of()), Optional.empty(), Optional.empty(), Optional.empty());
    }

    // ---- reordering, for determinism checks --------------------------------------------------

    /** The same report with every order-free collection reversed. */
    static IsolationReport reordered(IsolationReport r) {
        UnaryOperator<ControlRequirement> rq = q -> new ControlRequirement(q.domain(), q.intent(), q.posture(),
                q.descendants(), reversed(q.scope()));
        List<DomainProjection> rows = r.domains().stream().map(d -> d.requested() instanceof RequestedControl.Stated s
                ? new DomainProjection(d.domain(), new RequestedControl.Stated(rq.apply(s.requirement())), d.state(),
                d.claim(), d.evidence(), d.mechanism(), d.limitations(), d.policyGaps()) : d).toList();
        return new IsolationReport(r.schema(), r.stage(), r.posture(), r.postureDetail(), r.isolationClass(),
                r.identity(), r.target(), r.backend(), r.backendUnavailable(), r.selection(), r.policyOrigin(),
                rev(r.requested().stream().map(rq).toList()), rows, domainRefusalsReversed(r.refusals()), rev(r.unmapped()),
                r.credentials(), r.descriptors().map(f -> new DescriptorInventory(f.complete(), rev(f.kept()),
                rev(f.sealed()), rev(f.residual()))), r.authority(), r.outcome(), r.evidence());
    }

    /** Launch-wide refusals keep their order (it tells a story); per-domain ones are order-free. */
    private static List<RefusalEntry> domainRefusalsReversed(List<RefusalEntry> in) {
        List<RefusalEntry> out = new ArrayList<>(in.stream().filter(e -> e.domain().isEmpty()).toList());
        out.addAll(rev(in.stream().filter(e -> e.domain().isPresent()).toList()));
        return out;
    }

    private static Scope reversed(Scope s) {
        if (s instanceof Scope.Paths p) {
            return new Scope.Paths(rev(p.paths()));
        }
        if (s instanceof Scope.Egress e) {
            return new Scope.Egress(rev(e.grants()));
        }
        if (s instanceof Scope.Syscalls c) {
            return new Scope.Syscalls(c.mode(), rev(c.names()));
        }
        if (s instanceof Scope.Delegated d) {
            return new Scope.Delegated(rev(d.environmentNames()));
        }
        if (s instanceof Scope.IpcGrants i) {
            return new Scope.IpcGrants(new LinkedHashSet<>(rev(i.channels().stream().sorted().toList())));
        }
        return s;
    }

    private static <T> List<T> rev(List<T> in) {
        List<T> out = new ArrayList<>(in);
        Collections.reverse(out);
        return out;
    }
}
