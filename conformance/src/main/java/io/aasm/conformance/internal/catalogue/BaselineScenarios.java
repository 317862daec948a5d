package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Outside;
import io.aasm.conformance.internal.fixture.Toolbox;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.ports.capability.CapabilityDomain;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Side doors of a syscall statement that denies a call by name: namespaces made through clone(2) and
 * clone3(2) flags instead of unshare(2), the new mount API instead of mount(2), and a call newer than
 * the filter's syscall table. The control states an unrelated denial instead; a backend whose baseline
 * refuses these in every launch is recognised by the action's own errno at that step (judged against
 * {@code none} in the same run). Namespaces and mounts are made only inside the action's own namespaces.
 */
final class BaselineScenarios {
    private BaselineScenarios() {
    }

    static List<Scenario> all() {
        return List.of(
                namespace("surr-base-clone-newuser", "create a user namespace with clone(CLONE_NEWUSER), unshare denied",
                        "clone-userns", "clone newuser: errno=EPERM"),
                namespace("surr-base-clone3-newuser", "create a user namespace with clone3(CLONE_NEWUSER), unshare denied",
                        "clone3-userns", "clone3: errno=ENOSYS"),
                mountApi(), unknownSyscall());
    }

    private static String deny(Bench b, String name, String calls) {
        return b.policy(name).section("syscalls: {deny: [" + calls + "]}").text();
    }

    private static Scenario namespace(String name, String summary, String verb, String signature) {
        return new Scenario(name, CapabilityDomain.SYSCALL, summary, b -> {
            if (b.needsActor().isPresent()) {
                return b.needsActor().get();
            }
            Path record = b.out().resolve("userns");
            Staged.Observation effect = () -> {
                String got = Trees.read(record);
                String before = got.replaceAll("(?s).*before=(\\S+).*", "$1");
                String after = got.contains("after=") ? got.replaceAll("(?s).*after=(\\S+).*", "$1") : "";
                return !after.isEmpty() && !after.equals(before)
                        ? Effect.happened("a child ran in user namespace " + after + " (the program's: " + before + ")")
                        : Effect.absent("no new user namespace (" + got.strip().replace('\n', ' ') + ")");
            };
            return new Staging.Ready(new Staged(deny(b, name, "unshare, setns"), deny(b, name, "acct"),
                    "syscalls.deny unshare, setns -> acct", b.actor() + " " + verb + " " + record, effect, b::clearOut,
                    Staged.Chore.nothing(), Optional.of(signature)));
        });
    }

    /** fsopen/fsconfig/fsmount/move_mount of a tmpfs, inside a user+mount namespace of the action's own. */
    private static Scenario mountApi() {
        String name = "surr-base-new-mount-api";
        return new Scenario(name, CapabilityDomain.SYSCALL, "mount a tmpfs with the new mount API, mount(2) denied", b -> {
            if (b.needsActor().isPresent()) {
                return b.needsActor().get();
            }
            Path loot = b.out().resolve("loot");
            Staged.Observation effect = () -> Trees.read(loot).contains("aasmconf")
                    ? Effect.happened("a tmpfs was mounted: " + Trees.read(loot).strip())
                    : Effect.absent("no mount took place");
            return new Staging.Ready(new Staged(deny(b, name, "mount, umount2"), deny(b, name, "acct"),
                    "syscalls.deny mount, umount2 -> acct", "mkdir -p " + b.out() + "/mnt && " + b.actor() + " fsmount "
                    + b.out() + "/mnt " + loot, effect, b::clearOut, Staged.Chore.nothing(),
                    Optional.of("fsopen: errno=EPERM")));
        });
    }

    static final int NEWER_CALL = 461;
    private static final String SECCOMP_KNOWS = "import ctypes, sys\nf = ctypes.CDLL('libseccomp.so.2')"
            + ".seccomp_syscall_resolve_num_arch\nf.restype = ctypes.c_char_p\nn = f(0, int(sys.argv[1]))\n"
            + "print(n.decode() if n else '-')\n";

    /**
     * lsm_list_modules (461, Linux 6.8), harmless in itself: what matters is that a number the filter's
     * table does not know is not allowed by default. Hosted only where the kernel has the call and the
     * host's libseccomp cannot name it (so it is beyond the table a libseccomp filter is built from).
     */
    private static Scenario unknownSyscall() {
        String name = "surr-base-syscall-beyond-table";
        return new Scenario(name, CapabilityDomain.SYSCALL,
                "call a syscall newer than the filter's table (lsm_list_modules, " + NEWER_CALL + ")", b -> {
                    if (b.needsActor().isPresent()) {
                        return b.needsActor().get();
                    }
                    Optional<Path> python = Toolbox.python();
                    String known = python.isEmpty() ? "" : Outside.run(List.of(python.get().toString(), "-c",
                            SECCOMP_KNOWS, Integer.toString(NEWER_CALL))).strip();
                    if (!known.equals("-")) {
                        return new Staging.CannotHost(known.isEmpty() || known.contains("Error")
                                ? "cannot ask libseccomp which calls it knows (/usr/bin/python3 and libseccomp.so.2)"
                                : "this host's libseccomp names syscall " + NEWER_CALL + " (" + known + "): it is inside"
                                        + " the filter's table, so the fail-closed default is not exercised here");
                    }
                    Path probe = b.ws().resolve("probe");
                    String out = Outside.run(List.of(b.actor(), "lsm-list", probe.toString()));
                    if (!Trees.read(probe).startsWith("lsm ids:")) {
                        return new Staging.CannotHost("this kernel lacks lsm_list_modules (Linux 6.8+): " + out.strip());
                    }
                    Path loot = b.out().resolve("loot");
                    Staged.Observation effect = () -> Trees.read(loot).startsWith("lsm ids:")
                            ? Effect.happened("syscall " + NEWER_CALL + " ran: " + Trees.read(loot).strip())
                            : Effect.absent("syscall " + NEWER_CALL + " did not run");
                    return new Staging.Ready(new Staged(deny(b, name, "acct"), b.policy(name).text(),
                            "syscalls removed (no statement can name a call the filter's table lacks)",
                            b.actor() + " lsm-list " + loot, effect, b::clearOut, Staged.Chore.nothing(),
                            Optional.of("lsm_list_modules: errno=ENOSYS")));
                });
    }
}
