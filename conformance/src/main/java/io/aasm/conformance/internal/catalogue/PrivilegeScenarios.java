package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Outside;
import io.aasm.ports.capability.CapabilityDomain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;

/**
 * What root's capabilities would let a program do to the host, observed by the suite: a character device
 * made in the write grant and written through, an address added to the host's loopback interface. No
 * statement grants a capability, so the control removes the statement; a backend that drops every
 * capability is recognised by the action's EPERM, and one that never lets a program reach the host's
 * rtnetlink (sandlock virtualises NETLINK_ROUTE sockets) by ip's own message for that. A caller without
 * those capabilities cannot perform either action even unconfined: cannot-host.
 */
final class PrivilegeScenarios {
    private PrivilegeScenarios() {
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    static List<Scenario> all() {
        return List.of(mknod(), netAdmin(), LeastAuthority.scenario());
    }

    private static Optional<Staging.CannotHost> needsRoot(String what) {
        return Outside.holdsCapabilities() ? Optional.empty() : Optional.of(new Staging.CannotHost(what
                + " needs root's capabilities even unconfined: run the suite as root to host this check"));
    }

    /**
     * The new node is the kernel log's (/dev/kmsg, 1:11), which no boundary's device set holds: what is
     * written through it shows in the host's kernel log (one line, read back with dmesg).
     */
    private static Scenario mknod() {
        String name = "surr-cap-mknod-device";
        return new Scenario(name, CapabilityDomain.FILESYSTEM_WRITE,
                "make a character device (the kernel log's) in the write grant (CAP_MKNOD) and write through it", b -> {
                    if (b.needsActor().isPresent()) {
                        return b.needsActor().get();
                    }
                    if (needsRoot("mknod of a character device").isPresent()) {
                        return needsRoot("mknod of a character device").get();
                    }
                    Optional<String> dmesg = List.of("/usr/bin/dmesg", "/bin/dmesg").stream()
                            .filter(p -> Files.isExecutable(Path.of(p))).findFirst();
                    if (dmesg.isEmpty()) {
                        return new Staging.CannotHost("dmesg (util-linux) is not installed: the kernel log cannot be read");
                    }
                    // the kernel log outlives the trial: a marker of this staging alone
                    String marker = "aasm-conformance-through-node-" + Long.toHexString(RANDOM.nextLong());
                    Staged.Observation effect = () -> Outside.run(List.of(dmesg.get())).contains(marker)
                            ? Effect.happened("a line written through the new node is in the host's kernel log")
                            : Effect.absent("nothing written through a new node reached the kernel log");
                    return new Staging.Ready(new Staged(b.policy(name).section(b.filesystem(List.of(), List.of())).text(),
                            b.policy(name).text(), "filesystem removed (no statement grants making devices)",
                            b.actor() + " mknod-write " + b.out() + "/node 1 11 " + marker, effect, b::clearOut,
                            Staged.Chore.nothing(), Optional.of("mknod: errno=EPERM")));
                });
    }

    /** CAP_NET_ADMIN on the host's network namespace (egress not stated): an address added to lo. */
    private static Scenario netAdmin() {
        String name = "surr-cap-net-admin-address";
        return new Scenario(name, CapabilityDomain.SYSCALL,
                "add an address to the host's loopback interface (CAP_NET_ADMIN), egress not stated", b -> {
                    if (needsRoot("changing the host's interfaces").isPresent()) {
                        return needsRoot("changing the host's interfaces").get();
                    }
                    Optional<String> ip = List.of("/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip").stream()
                            .filter(p -> Files.isExecutable(Path.of(p))).findFirst();
                    if (ip.isEmpty()) {
                        return new Staging.CannotHost("the ip command (iproute2) is not installed");
                    }
                    String address = "127." + (100 + RANDOM.nextInt(100)) + "." + (1 + RANDOM.nextInt(254)) + "."
                            + (1 + RANDOM.nextInt(254));
                    if (Outside.run(List.of(ip.get(), "-o", "addr", "show", "dev", "lo")).contains(address + "/")) {
                        return new Staging.CannotHost(address + " is already on lo");
                    }
                    Staged.Chore remove = () -> Outside.run(List.of(ip.get(), "addr", "del", address + "/32", "dev", "lo"));
                    Staged.Observation effect = () -> Outside.run(List.of(ip.get(), "-o", "addr", "show", "dev", "lo"))
                            .contains(address + "/32") ? Effect.happened(address + "/32 was added to the host's lo")
                            : Effect.absent("the host's lo is unchanged");
                    return new Staging.Ready(new Staged(b.policy(name).section("syscalls: {deny: [acct]}").text(),
                            b.policy(name).text(), "syscalls removed (no statement grants a capability)",
                            ip.get() + " addr add " + address + "/32 dev lo", effect,
                            () -> {
                                remove.run();
                                b.clearOut();
                            }, remove, Optional.of("RTNETLINK answers: Operation not permitted"))
                            .withOtherDenials("Cannot talk to rtnetlink: Address family not supported by protocol"));
                });
    }
}
