package io.aasm.backend.vm.internal.runtime;

import io.aasm.backend.vm.internal.guest.CanaryPlan;
import io.aasm.backend.vm.internal.guest.CanaryTargets;
import io.aasm.backend.vm.internal.guest.GuestPlan;
import io.aasm.backend.vm.internal.lower.VmLaunch;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.support.canary.CanaryRecords;
import io.aasm.support.canary.CanaryVerdict;
import java.security.SecureRandom;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which canaries a launch asks the guest agent for, and what their report proves. A canary is asked only for
 * a domain the launch claims to prevent and whose target the grants leave out (a grant of "/" itself leaves
 * the view's root readable or writable, so no canary could be denied there). The report counts only when it
 * carries this launch's nonce: a report from another launch or a replayed frame proves nothing here.
 */
final class GuestCanaries {
    private static final SecureRandom RANDOM = new SecureRandom();

    private GuestCanaries() {
    }

    static Optional<CanaryPlan> choose(VmLaunch launch) {
        // The program's process reports its canaries through a pipe: a policy refusing write leaves no report,
        // and a canary that got through could not even say so (the process would just end with 125).
        if (!free(launch.canaryTargets(), "write")) {
            return Optional.empty();
        }
        Set<CapabilityDomain> d = EnumSet.noneOf(CapabilityDomain.class);
        Map<CapabilityDomain, List<String>> installed = launch.installed();
        boolean rootGranted = launch.plan().rules().stream().anyMatch(r -> r.path().equals("/"));
        boolean rootWritable = launch.plan().rules().stream()
                .anyMatch(r -> r.path().equals("/") && r.access() != GuestPlan.Access.READ);
        if (installed.containsKey(CapabilityDomain.FILESYSTEM_READ) && !rootGranted) {
            d.add(CapabilityDomain.FILESYSTEM_READ);
        }
        if (installed.containsKey(CapabilityDomain.FILESYSTEM_WRITE) && !rootWritable) {
            d.add(CapabilityDomain.FILESYSTEM_WRITE);
        }
        CanaryTargets t = launch.canaryTargets();
        // A canary whose own calls the launch's syscall policy refuses would be denied by that policy, not by
        // its domain's mechanism: it is not asked.
        if (installed.containsKey(CapabilityDomain.NETWORK_EGRESS) && free(t, "socket", "connect")) {
            d.add(CapabilityDomain.NETWORK_EGRESS);
        }
        // Denied outright (a seccomp program), not a ceiling: reaching pids.max would take that many processes.
        if (installed.containsKey(CapabilityDomain.PROCESS_CREATION) && launch.plan().pidsMax().isEmpty()) {
            d.add(CapabilityDomain.PROCESS_CREATION);
        }
        if (installed.containsKey(CapabilityDomain.SYSCALL) && t.syscall().isPresent()) {
            d.add(CapabilityDomain.SYSCALL);
        }
        // No network device in the guest, whatever is stated: a datagram finds no route.
        if (installed.containsKey(CapabilityDomain.NAME_RESOLUTION) && free(t, "socket", "sendto")) {
            d.add(CapabilityDomain.NAME_RESOLUTION);
        }
        // Every launch installs the baseline seccomp program, which denies the kernel keyrings.
        if (installed.containsKey(CapabilityDomain.CREDENTIAL)) {
            d.add(CapabilityDomain.CREDENTIAL);
        }
        // Only the rlimit ceilings have a canary: memory and processes are cgroup counters, the wall clock the host's.
        if (installed.containsKey(CapabilityDomain.RESOURCE) && t.ceiling().isPresent()
                && free(t, "prlimit64", "getrlimit", "setrlimit")) {
            d.add(CapabilityDomain.RESOURCE);
        }
        if (d.isEmpty()) {
            return Optional.empty();
        }
        byte[] nonce = new byte[8];
        RANDOM.nextBytes(nonce);
        return Optional.of(new CanaryPlan(d, HexFormat.of().formatHex(nonce), t));
    }

    private static boolean free(CanaryTargets t, String... calls) {
        return java.util.Arrays.stream(calls).noneMatch(t.policyRefuses()::contains);
    }

    /**
     * One DECISION record per canary the agent reported denied under this launch's nonce (the shared rule of
     * every backend; the agent reports the error's name, not its number). A report of another launch proves
     * nothing here, and a canary that got through never reaches this point: the agent refused the launch.
     */
    static List<EvidenceRecord> decisions(Optional<CanaryPlan> asked, Map<String, String> started) {
        if (asked.isEmpty() || !asked.get().nonce().equals(started.get("canary_nonce"))) {
            return List.of();
        }
        Map<CapabilityDomain, CanaryVerdict> verdicts = new EnumMap<>(CapabilityDomain.class);
        for (CapabilityDomain d : asked.get().domains()) {
            if (started.getOrDefault("canary." + d.token(), "").startsWith("denied:")) {
                verdicts.put(d, CanaryVerdict.denied(0));
            }
        }
        return CanaryRecords.of(new CanaryRecords.Launch(asked.get().nonce(), asked.get().domains(),
                d -> asked.get().attempt(d) + " (answered " + started.get("canary." + d.token()).substring(
                        "denied:".length()) + ")", "by the program's process inside its guest boundary right before "
                + "execve" + cost(started)), verdicts, Optional.empty());
    }

    /** The agent's own measure of all the launch's attempts (CLOCK_MONOTONIC in the guest), when it is a number. */
    private static String cost(Map<String, String> started) {
        String us = started.getOrDefault("canary_us", "");
        return us.matches("[0-9]{1,9}") ? " (all of this launch's canaries took " + us + " µs in the guest)" : "";
    }
}
