package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.ports.capability.CapabilityDomain;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Calls that reach outside the tree or reshape it. Hostile policies deny the call by name; the
 * control denies an unrelated call instead ({@code acct}). A backend that denies these calls in every
 * launch, whatever the policy, is recognised by the call's own EPERM (the denial signature), so the
 * verdict is not left inconclusive by a correct hardening.
 */
final class SyscallScenarios {
    private SyscallScenarios() {
    }

    static List<Scenario> all() {
        return List.of(memoryRead("sys-ptrace-outside-process", "ptrace-attach a process outside the tree and peek "
                        + "its secret", "ptrace", "peek", "ptrace attach: errno=EPERM"),
                memoryRead("sys-process-vm-readv", "copy a secret out of a process outside the tree with "
                        + "process_vm_readv(2)", "process_vm_readv", "vmread", "process_vm_readv: errno=EPERM"),
                mount(), unshare());
    }

    private static String deny(Bench b, String name, String call) {
        return b.policy(name).section("syscalls: {deny: [" + call + "]}").text();
    }

    private static Scenario memoryRead(String name, String summary, String call, String verb, String denial) {
        return new Scenario(name, CapabilityDomain.SYSCALL, summary, b -> {
            if (b.needsActor().isPresent()) {
                return b.needsActor().get();
            }
            Victim v = Victim.start(b, "mem-" + b.tools().canary());
            if (v == null) {
                return new Staging.CannotHost("the victim process did not start");
            }
            Path loot = b.out().resolve("loot");
            Staged.Observation effect = () -> Trees.read(loot).contains(v.secret())
                    ? Effect.happened("out/loot holds the victim's secret") : Effect.absent("out/loot lacks the secret");
            return new Staging.Ready(new Staged(deny(b, name, call), deny(b, name, "acct"), "syscalls.deny "
                    + call + " -> acct", b.actor() + " " + verb + " " + v.pid() + " " + v.address() + " " + v.length()
                    + " " + loot, effect, b::clearOut, v::stop, Optional.of(denial)));
        });
    }

    /** The mount happens in a private mount namespace, so the host's table is never touched. */
    private static Scenario mount() {
        String name = "sys-mount-tmpfs";
        return new Scenario(name, CapabilityDomain.SYSCALL, "mount a tmpfs (in a new user+mount namespace)", b -> {
            Path loot = b.out().resolve("loot");
            String script = "mkdir -p " + b.out() + "/mnt && unshare -Urm sh -c 'mount -t tmpfs aasmconf " + b.out()
                    + "/mnt && grep aasmconf /proc/self/mountinfo > " + loot + "'";
            Staged.Observation effect = () -> Trees.read(loot).contains("aasmconf")
                    ? Effect.happened("a tmpfs was mounted: " + Trees.read(loot).strip())
                    : Effect.absent("no mount took place");
            return new Staging.Ready(new Staged(deny(b, name, "mount"), deny(b, name, "acct"), "syscalls.deny mount -> acct",
                    script, effect, b::clearOut, Staged.Chore.nothing(),
                    Optional.of("unshare failed: Operation not permitted")));
        });
    }

    private static Scenario unshare() {
        String name = "sys-unshare-user-namespace";
        return new Scenario(name, CapabilityDomain.SYSCALL, "enter a new user namespace with unshare(2)", b -> {
            Path before = b.out().resolve("before");
            Path after = b.out().resolve("after");
            String script = "readlink /proc/self/ns/user > " + before + "\nunshare -Ur readlink /proc/self/ns/user > "
                    + after;
            Staged.Observation effect = () -> {
                String a = Trees.read(after).strip();
                String was = Trees.read(before).strip();
                return !a.isEmpty() && !a.equals(was) ? Effect.happened("user namespace " + was + " -> " + a)
                        : Effect.absent("no new user namespace (" + (was.isEmpty() ? "no readlink" : was) + ")");
            };
            return new Staging.Ready(new Staged(deny(b, name, "unshare"), deny(b, name, "acct"),
                    "syscalls.deny unshare -> acct", script, effect, b::clearOut, Staged.Chore.nothing(),
                    Optional.of("unshare failed: Operation not permitted")));
        });
    }
}
