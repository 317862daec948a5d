package io.aasm.backend.vm.internal.runtime;

/** What a guest offers the agent: its kernel, Landlock ABI, whether the tree's cgroup exists, and boot costs. */
public record GuestFacts(String kernel, int landlockAbi, boolean cgroup, long coldBootMillis, String image) {
}
