package io.aasm.backend.vm.internal.probe;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * One controlled pair per domain, observed in a guest on this host: the same action, by a grandchild, with
 * and without the one grant that permits it; the effect is judged by the host, never by an exit code. Where
 * no grant of this backend can permit the action (the guest has no network device and shares no process
 * with the host), the control is the same action run on the host without any boundary ({@link HostControl}):
 * it shows the action works here, so its absence in the guest is the boundary's doing.
 */
public final class VmProbeSuite {
    /** Part of the probe cache key: raise it whenever a probe changes what it runs or how it judges. */
    public static final int VERSION = 2;
    private static final List<String> SYSTEM_READ = List.of("/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc");

    private final ProbeRunner runner;
    private final Path scratchRoot;
    private final RelayPair.MediatedRunner mediated;

    public VmProbeSuite(ProbeRunner runner, Path scratchRoot) {
        this(runner, scratchRoot, null);
    }

    /** {@code mediated}: runs a launch whose proxy port leads to a given endpoint (the relay pair); null: none. */
    public VmProbeSuite(ProbeRunner runner, Path scratchRoot, RelayPair.MediatedRunner mediated) {
        this.runner = runner;
        this.scratchRoot = scratchRoot;
        this.mediated = mediated;
    }

    public Map<CapabilityDomain, ProbeResult> runAll() {
        Map<CapabilityDomain, ProbeResult> out = new EnumMap<>(CapabilityDomain.class);
        for (CapabilityDomain d : CapabilityDomain.values()) {
            out.put(d, run(d));
        }
        return out;
    }

    public ProbeResult run(CapabilityDomain d) {
        Path s = null;
        try {
            s = Files.createTempDirectory(scratchRoot, "aasm-vm-probe-");
            Files.createDirectories(s.resolve("out"));
            return switch (d) {
                case FILESYSTEM_READ -> fsRead(s);
                case FILESYSTEM_WRITE -> fsWrite(s);
                case NETWORK_EGRESS -> both(HostControl.network(this, s), relay(s));
                case NAME_RESOLUTION -> names(s);
                case SYSCALL -> syscall(s);
                case PROCESS_CREATION -> process(s);
                case IPC -> HostControl.signal(this, s);
                case CREDENTIAL -> credential(s);
                case RESOURCE -> resource(s);
            };
        } catch (IOException | LaunchException | RuntimeException e) {
            return ProbeResult.inconclusive(d.token() + " probe could not run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ProbeResult.inconclusive("interrupted");
        } finally {
            HostControl.delete(s);
        }
    }

    /**
     * Egress prevents only when both pairs hold: the guest reaches nothing without a grant, and with one its only
     * way out is the proxy port (the way through arrives, the way around does not).
     */
    static ProbeResult both(ProbeResult own, ProbeResult relay) {
        String detail = own.detail() + "; proxy port: " + relay.detail();
        return own.verdict() == ProbeResult.Verdict.DENIAL_OBSERVED && relay.verdict() == ProbeResult.Verdict.DENIAL_OBSERVED
                ? ProbeResult.observed(detail) : ProbeResult.inconclusive(detail);
    }

    private ProbeResult relay(Path s) throws IOException, LaunchException, InterruptedException {
        return mediated == null ? ProbeResult.inconclusive("no mediated runner: the proxy port was not probed")
                : RelayPair.run(mediated, s);
    }

    /** {@code sh -c 'sh -c "action; :"; :'} in the guest, with these requirements (system paths readable). */
    ExitDisposition guest(String action, Path cwd, Map<String, String> env, List<ControlRequirement> reqs)
            throws LaunchException {
        String inner = "/bin/sh -c '" + action + "; :'; :";
        return runner.run(new ExecutionSpec("/bin/sh", List.of("-c", inner), cwd.toString(), IdentityRef.anonymous(),
                reqs, env, CredentialPosture.none(), new Stdio.Inherit()));
    }

    static ControlRequirement req(CapabilityDomain d, Scope s) {
        return ControlRequirement.strict(d, s);
    }

    static ControlRequirement systemRead(String... extra) {
        List<String> p = new ArrayList<>(SYSTEM_READ.stream().filter(x -> Files.exists(Path.of(x))).toList());
        p.addAll(List.of(extra));
        return req(CapabilityDomain.FILESYSTEM_READ, new Scope.Paths(p));
    }

    static ProbeResult verdict(boolean controlEffect, boolean denialEffect, String what, Object control, Object denial) {
        if (controlEffect && !denialEffect) {
            return ProbeResult.observed(what + ": control had the effect, denial had none");
        }
        return ProbeResult.inconclusive(what + ": control effect=" + controlEffect + " (" + control + "), denial effect="
                + denialEffect + " (" + denial + ")");
    }

    private ProbeResult fsRead(Path s) throws IOException, LaunchException {
        Path secret = Files.createDirectories(s.resolve("secret"));
        Files.writeString(secret.resolve("data"), "aasm-probe-secret");
        Path out = s.resolve("out/read");
        String action = "cat " + secret.resolve("data") + " > " + out;
        ControlRequirement write = req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(s.resolve("out")
                .toString())));
        ExitDisposition denial = guest(action, s.resolve("out"), Map.of(), List.of(systemRead(), write));
        boolean denied = contains(out, "aasm-probe-secret");
        ExitDisposition control = guest(action, s.resolve("out"), Map.of(), List.of(systemRead(secret.toString()), write));
        return verdict(contains(out, "aasm-probe-secret"), denied, "read of a file outside the grants", control, denial);
    }

    private ProbeResult fsWrite(Path s) throws IOException, LaunchException {
        Path w = Files.createDirectories(s.resolve("w"));
        Path target = Files.writeString(w.resolve("target"), "original");
        String action = "echo changed > " + target;
        ExitDisposition denial = guest(action, s.resolve("out"), Map.of(), List.of(systemRead(),
                req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(s.resolve("out").toString())))));
        boolean denied = !Files.readString(target).equals("original");
        ExitDisposition control = guest(action, s.resolve("out"), Map.of(), List.of(systemRead(), req(
                CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(s.resolve("out").toString(), w.toString())))));
        return verdict(contains(target, "changed"), denied, "write to a file outside the grants", control, denial);
    }

    private ProbeResult names(Path s) throws IOException, LaunchException {
        Path out = s.resolve("out/names");
        String action = "getent hosts aasm-probe.invalid > " + out;
        List<ControlRequirement> base = List.of(systemRead(), writeOut(s));
        ExitDisposition denial = guest(action, s.resolve("out"), Map.of(), plus(base, req(CapabilityDomain.NAME_RESOLUTION,
                new Scope.WholeDomain())));
        boolean denied = contains(out, "127.0.0.9");
        ExitDisposition control = guest(action, s.resolve("out"), Map.of(), plus(base, req(CapabilityDomain.NAME_RESOLUTION,
                new Scope.PinnedHosts(new TreeMap<>(Map.of("aasm-probe.invalid", "127.0.0.9"))))));
        return verdict(contains(out, "127.0.0.9"), denied, "lookup of a name outside the pinned table", control, denial);
    }

    private ProbeResult syscall(Path s) throws IOException, LaunchException {
        Path made = s.resolve("out/made");
        List<ControlRequirement> base = List.of(systemRead(), writeOut(s));
        ExitDisposition denial = guest("mkdir " + made, s.resolve("out"), Map.of(), plus(base, req(CapabilityDomain.SYSCALL,
                new Scope.Syscalls(SyscallMode.DENY, List.of("mkdir", "mkdirat")))));
        boolean denied = Files.exists(made);
        ExitDisposition control = guest("mkdir " + made, s.resolve("out"), Map.of(), plus(base, req(CapabilityDomain.SYSCALL,
                new Scope.Syscalls(SyscallMode.DENY, List.of("acct")))));
        return verdict(Files.isDirectory(made), denied, "mkdir with mkdir/mkdirat on the deny list", control, denial);
    }

    private ProbeResult process(Path s) throws IOException, LaunchException {
        Path out = s.resolve("out/proc");
        List<ControlRequirement> base = List.of(systemRead(), writeOut(s));
        ExitDisposition denial = guest("echo ran > " + out, s.resolve("out"), Map.of(), plus(base,
                req(CapabilityDomain.PROCESS_CREATION, new Scope.WholeDomain())));
        boolean denied = contains(out, "ran");
        ExitDisposition control = guest("echo ran > " + out, s.resolve("out"), Map.of(), base);
        return verdict(contains(out, "ran"), denied, "a grandchild process (needs fork)", control, denial);
    }

    /** The undelegated name is the pair's control: without the statement it reaches the program. */
    private ProbeResult credential(Path s) throws IOException, LaunchException {
        Path env = s.resolve("out/env");
        Map<String, String> childEnv = Map.of("AASM_PROBE_KEEP", "1", "AASM_PROBE_DROP", "1");
        List<ControlRequirement> base = List.of(systemRead(), writeOut(s));
        ExitDisposition denial = guest("env > " + env, s.resolve("out"), Map.of("AASM_PROBE_KEEP", "1"), plus(base,
                req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of("AASM_PROBE_KEEP")))));
        boolean denied = contains(env, "AASM_PROBE_DROP=") || !contains(env, "AASM_PROBE_KEEP=");
        ExitDisposition control = guest("env > " + env, s.resolve("out"), childEnv, base);
        return verdict(contains(env, "AASM_PROBE_DROP="), denied, "an undelegated environment name", control, denial);
    }

    private ProbeResult resource(Path s) throws IOException, LaunchException {
        Path big = s.resolve("out/big");
        String action = "yes aasm | head -c 100000 > " + big;
        List<ControlRequirement> base = List.of(systemRead(), writeOut(s));
        ExitDisposition denial = guest(action, s.resolve("out"), Map.of(), plus(base, req(CapabilityDomain.RESOURCE,
                new Scope.Limits(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(),
                        OptionalLong.of(4096), OptionalLong.empty()))));
        boolean denied = size(big) > 4096;
        ExitDisposition control = guest(action, s.resolve("out"), Map.of(), base);
        return verdict(size(big) == 100000, denied, "a 100000-byte file under a 4096-byte file-size ceiling", control,
                denial);
    }

    static ControlRequirement writeOut(Path s) {
        return req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(s.resolve("out").toString())));
    }

    static List<ControlRequirement> plus(List<ControlRequirement> base, ControlRequirement r) {
        List<ControlRequirement> out = new ArrayList<>(base);
        out.add(r);
        return out;
    }

    static long size(Path p) throws IOException {
        return Files.exists(p) ? Files.size(p) : -1;
    }

    static boolean contains(Path p, String needle) throws IOException {
        return Files.exists(p) && new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1).contains(needle);
    }
}
