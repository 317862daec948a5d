package io.aasm.backend.vm.internal.lower;

import io.aasm.backend.vm.internal.guest.ViewOp;
import io.aasm.ports.policy.Scope;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The resolver files bound over the view when name resolution is stated: the host table holds only
 * localhost and the pinned names, resolv.conf names no server (the C library then asks the guest's own
 * loopback, where nothing answers), and the hosts database is the file only.
 */
final class NameFiles {
    static final List<String> PATHS = List.of("/etc/hosts", "/etc/resolv.conf", "/etc/nsswitch.conf");

    private NameFiles() {
    }

    static List<ViewOp> files(Scope scope) {
        StringBuilder hosts = new StringBuilder("127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n");
        if (scope instanceof Scope.PinnedHosts p) {
            for (Map.Entry<String, String> e : p.hosts().entrySet()) {
                hosts.append(e.getValue()).append('\t').append(e.getKey()).append('\n');
            }
        }
        String resolv = "# aasm: no name server is reachable from this boundary\noptions timeout:1 attempts:1\n";
        String nss = "passwd: files\ngroup: files\nshadow: files\nhosts: files\nnetworks: files\nprotocols: files\n"
                + "services: files\nethers: files\nrpc: files\n";
        return List.of(new ViewOp.File(PATHS.get(0), bytes(hosts.toString())), new ViewOp.File(PATHS.get(1),
                bytes(resolv)), new ViewOp.File(PATHS.get(2), bytes(nss)));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
