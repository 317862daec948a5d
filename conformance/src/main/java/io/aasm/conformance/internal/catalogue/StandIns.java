package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.StandInHost;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.report.IsolationReport;
import io.aasm.conformance.internal.run.Truth;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What every mediation scenario shares: the stand-in hosts' names (only the policy's hosts table knows them),
 * the policy around the grants, the tools, the effect at a stand-in host, and the audit that a denial the
 * report claims left its decision record.
 */
final class StandIns {
    static final String INDEX = "127.0.0.2";
    static final String OTHER = "127.0.0.3";
    static final String GIT = "127.0.0.4";
    static final String PINS = "  name_resolution: {hosts: {index.test: " + INDEX + ", other.test: " + OTHER
            + ", git.test: " + GIT + "}}\n";
    static final String CURL = "/usr/bin/curl";
    static final String GIT_BIN = "/usr/bin/git";
    static final String PYTHON = "/usr/bin/python3";

    private StandIns() {
    }

    /** The filesystem of every mediation scenario, its egress grants and, when given, the pins. */
    static String policy(Bench b, String name, String grants, String nameResolution) {
        return b.policy(name).section(b.filesystem(List.of(), List.of()))
                .section("network:\n  egress: {allow: [" + grants + "]}\n" + nameResolution).text();
    }

    /**
     * The same for a real client (curl, git, pip), with two minutes of wall clock instead of the suite's 20 s:
     * {@code python3 -m pip} took 28-45 s in a VM guest under TCG at load 18-20, and a client cut off before it
     * reaches the proxy leaves neither an effect nor a decision record.
     */
    static String clientPolicy(Bench b, String name, String grants, String nameResolution) {
        return b.policy(name).section(b.filesystem(List.of(), List.of()))
                .section("network:\n  egress: {allow: [" + grants + "]}\n" + nameResolution)
                .section("resources: {wall_clock_seconds: 120}").text();
    }

    static String grant(String host, int port) {
        return "{host: " + host + ", port: " + port + "}";
    }

    /** What every tool needs that the policy's environment does not carry. */
    static String prelude(Bench b) {
        return "export HOME=" + b.out() + " TMPDIR=" + b.out() + "/tmp GIT_TERMINAL_PROMPT=0; mkdir -p " + b.out()
                + "/tmp; ";
    }

    static Optional<Staging.CannotHost> needs(String tool) {
        return Files.isExecutable(Path.of(tool)) ? Optional.empty() : Optional.of(new Staging.CannotHost(tool
                + " is not installed (the Debian packages curl, git and python3-pip; .ci/run installs them)"));
    }

    /** The effect: any request line that reached the stand-in host. */
    static Staged.Observation reached(StandInHost host, String what) {
        return () -> {
            List<String> got = host.drain();
            return got.isEmpty() ? Effect.absent("no request reached " + what + " (" + host.address() + ":"
                    + host.port() + ")") : Effect.happened(String.join("; ", got) + " reached " + what);
        };
    }

    /**
     * Recorded: when the report claims prevention for network egress, the refusal of {@code destination} must be
     * in its evidence as a denied decision record (the proxy saw and refused it; nothing else would explain it).
     */
    static Staged.Audit deniedRecordFor(String destination) {
        return post -> {
            if (!Truth.claimsPrevention(post, CapabilityDomain.NETWORK_EGRESS)) {
                return List.of();
            }
            boolean found = post.evidence().map(e -> e.records()).orElse(List.of()).stream()
                    .filter(r -> r.kind() == EvidenceKind.DECISION)
                    .map(EvidenceRecord::detail)
                    .anyMatch(d -> d.contains("\"destination\":\"" + destination + "\"")
                            && d.contains("\"verdict\":\"denied\""));
            return found ? List.of() : List.of("the report claims network egress prevention, but no denied decision "
                    + "record for " + destination + " is in its evidence");
        };
    }

    static boolean recorded(IsolationReport post) {
        return post.evidence().isPresent();
    }
}
