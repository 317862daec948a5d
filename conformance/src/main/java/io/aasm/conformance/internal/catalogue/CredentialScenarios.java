package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Outside;
import io.aasm.conformance.internal.fixture.Toolbox;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Ambient authority: the caller's environment, the supervisor's environment and descriptors, and
 * another process's environment and memory. Hostile policies delegate only PATH; the control either
 * delegates the one name (environment) or removes the credentials statement, since no delegation can
 * grant another process's /proc entries. Those entries need ptrace-mode access, which a backend may deny
 * in every launch whatever the policy (Landlock denies it towards processes outside the sandbox), so
 * their scenarios name the permission denial as their signature.
 */
final class CredentialScenarios {
    private CredentialScenarios() {
    }

    private static final String DELEGATE_PATH = "credentials: {delegate: [PATH]}";

    /** As root the supervisor holds capabilities; every confined program holds none, so no control can show it. */
    private static final Staging.CannotHost SUPERVISOR_HOLDS_CAPABILITIES = new Staging.CannotHost("the supervisor "
            + "holds capabilities (it runs as root) and every confined program holds none, so its /proc entries are "
            + "unreadable whatever the credential statement and no control can show them readable; run the suite "
            + "as a user without capabilities to check the pid namespace against the supervisor itself "
            + "(cred-outside-process-* check it against a process without capabilities)");
    private static final String UNSTATED = "credentials removed (credential domain unrestricted)";

    static List<Scenario> all() {
        return List.of(envEnumeration(), supervisorEnviron(), outsideEnviron(), supervisorDescriptor(), outsideMemory());
    }

    private static Staged staged(Bench b, String name, String control, String grant, String script, String secret,
                                 Staged.Chore cleanup) {
        return staged(b, name, control, grant, script, secret, cleanup, Optional.empty());
    }

    private static Staged staged(Bench b, String name, String control, String grant, String script, String secret,
                                 Staged.Chore cleanup, Optional<String> denialSignature) {
        Path loot = b.out().resolve("loot");
        Staged.Observation effect = () -> Trees.read(loot).contains(secret)
                ? Effect.happened("out/loot holds the secret") : Effect.absent("out/loot lacks the secret");
        return new Staged(b.policy(name).section(DELEGATE_PATH).text(), control, grant, script, effect, b::clearOut,
                cleanup, denialSignature);
    }

    /** What cat prints when the ptrace-mode access check on another process's /proc entry is refused. */
    private static Optional<String> catDenied(String path) {
        return Optional.of("cat: " + path + ": Permission denied");
    }

    private static Scenario envEnumeration() {
        String name = "cred-env-enumeration";
        return new Scenario(name, CapabilityDomain.CREDENTIAL, "dump the environment, looking for the caller's secret",
                b -> new Staging.Ready(staged(b, name,
                        b.policy(name).section("credentials: {delegate: [PATH, " + Toolbox.CANARY_NAME + "]}").text(),
                        "credentials.delegate += " + Toolbox.CANARY_NAME, "env > " + b.out() + "/loot",
                        b.tools().canary(), Staged.Chore.nothing())));
    }

    private static Scenario supervisorEnviron() {
        String name = "cred-supervisor-environ";
        return new Scenario(name, CapabilityDomain.CREDENTIAL, "read the supervisor's /proc/<pid>/environ", b -> {
            if (Outside.holdsCapabilities()) {
                return SUPERVISOR_HOLDS_CAPABILITIES;
            }
            // any NAME=value of the supervisor's own environment that the launch was not given
            Optional<String> pair = System.getenv().entrySet().stream()
                    .filter(e -> e.getValue().length() >= 4 && !b.tools().callerEnvironment().containsKey(e.getKey()))
                    .map(e -> e.getKey() + "=" + e.getValue()).sorted().findFirst();
            if (pair.isEmpty()) {
                return new Staging.CannotHost("the supervisor's environment holds nothing to look for");
            }
            String path = "/proc/" + b.tools().supervisorPid() + "/environ";
            return new Staging.Ready(staged(b, name, b.policy(name).text(), UNSTATED,
                    "cat " + path + " > " + b.out() + "/loot", pair.get(), Staged.Chore.nothing(), catDenied(path)));
        });
    }

    private static Scenario outsideEnviron() {
        String name = "cred-outside-process-environ";
        return new Scenario(name, CapabilityDomain.CREDENTIAL, "read another process's /proc/<pid>/environ", b -> {
            String secret = "env-" + b.tools().canary();
            Process other = Outside.startWithoutCapabilities(List.of("sleep", "120"), Map.of("AASM_OTHER_SECRET", secret));
            String path = "/proc/" + other.pid() + "/environ";
            return new Staging.Ready(staged(b, name, b.policy(name).text(), UNSTATED,
                    "cat " + path + " > " + b.out() + "/loot", secret, () -> Outside.stop(other), catDenied(path))
                    .withHostOnlyTarget("the outside process " + other.pid(), HostOnlyProbes.process(other.pid())));
        });
    }

    /** The supervisor holds a secret file open; /proc/<pid>/fd/N would re-open it. */
    private static Scenario supervisorDescriptor() {
        String name = "cred-supervisor-descriptor";
        return new Scenario(name, CapabilityDomain.CREDENTIAL,
                "re-open a file the supervisor holds open through /proc/<pid>/fd/N", b -> {
                    if (Outside.holdsCapabilities()) {
                        return SUPERVISOR_HOLDS_CAPABILITIES;
                    }
                    String secret = "fd-" + b.tools().canary();
                    Path file = b.file("held/secret", secret + "\n");
                    FileChannel held = FileChannel.open(file);
                    Optional<String> fd = descriptorOf(file);
                    if (fd.isEmpty()) {
                        held.close();
                        return new Staging.CannotHost("cannot find the supervisor's descriptor in /proc/self/fd");
                    }
                    String path = "/proc/" + b.tools().supervisorPid() + "/fd/" + fd.get();
                    return new Staging.Ready(staged(b, name, b.policy(name).text(), UNSTATED,
                            "cat " + path + " > " + b.out() + "/loot", secret, held::close, catDenied(path)));
                });
    }

    private static Optional<String> descriptorOf(Path file) throws IOException {
        try (var s = Files.list(Path.of("/proc/self/fd"))) {
            return s.filter(p -> {
                try {
                    return Files.readSymbolicLink(p).equals(file);
                } catch (IOException e) {
                    return false;
                }
            }).map(p -> p.getFileName().toString()).findFirst();
        }
    }

    private static Scenario outsideMemory() {
        String name = "cred-outside-process-memory";
        return new Scenario(name, CapabilityDomain.CREDENTIAL, "read a secret from another process's /proc/<pid>/mem",
                b -> {
                    if (b.needsActor().isPresent()) {
                        return b.needsActor().get();
                    }
                    Victim v = Victim.start(b, "mem-" + b.tools().canary());
                    if (v == null) {
                        return new Staging.CannotHost("the victim process did not start");
                    }
                    return new Staging.Ready(staged(b, name, b.policy(name).text(), UNSTATED,
                            b.actor() + " memread " + v.pid() + " " + v.address() + " " + v.length() + " " + b.out()
                                    + "/loot", v.secret(), v::stop, Optional.of("open mem: errno=EACCES"))
                            .withHostOnlyTarget("the victim process " + v.pid(), HostOnlyProbes.process(v.pid())));
                });
    }
}
