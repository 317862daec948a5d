package io.aasm.backend.vm.internal.probe;

import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.Scope;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The pairs whose control no grant of this backend can make: egress (the guest has no network device) and
 * IPC beyond the tree (no host process exists in the guest). The denial runs in the guest as usual; the
 * control is the same action by a grandchild on the host, without any boundary, and the effect is judged on
 * the host's own listener or process.
 */
final class HostControl {
    private HostControl() {
    }

    static ProbeResult network(VmProbeSuite suite, Path s) throws IOException, LaunchException, InterruptedException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            server.configureBlocking(false);
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            String action = "echo aasm-probe > /dev/tcp/127.0.0.1/" + port;
            ExitDisposition denial = suite.guest("/bin/bash -c \"" + action + "\"", Path.of("/usr"), Map.of(),
                    List.of(VmProbeSuite.systemRead(), VmProbeSuite.req(CapabilityDomain.NETWORK_EGRESS,
                            new Scope.WholeDomain())));
            boolean denied = received(server);
            int control = host("/bin/bash -c '" + action + "'");
            return VmProbeSuite.verdict(received(server), denied, "TCP connect to a loopback listener the supervisor "
                    + "owns (control: the same connect on the host, without a boundary; no grant can give the guest "
                    + "a network)", "exit " + control, denial);
        }
    }

    static ProbeResult signal(VmProbeSuite suite, Path s) throws IOException, LaunchException, InterruptedException {
        Process outside = new ProcessBuilder("sleep", "60").start();
        try {
            String action = "kill -TERM " + outside.pid();
            ExitDisposition denial = suite.guest(action, Path.of("/usr"), Map.of(), List.of(VmProbeSuite.systemRead(),
                    VmProbeSuite.req(CapabilityDomain.IPC, new Scope.IpcGrants(java.util.Set.of()))));
            boolean denied = outside.waitFor(300, TimeUnit.MILLISECONDS);
            int control = host(action);
            boolean effect = outside.waitFor(5, TimeUnit.SECONDS);
            return VmProbeSuite.verdict(effect, denied, "a signal to a process outside the tree (control: the same "
                    + "kill on the host, without a boundary; no host process exists in the guest)", "exit " + control,
                    denial);
        } finally {
            outside.destroyForcibly();
        }
    }

    /** The action by a grandchild on the host, unconfined: {@code sh -c 'sh -c "..."'}. */
    private static int host(String action) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("/bin/sh", "-c", "/bin/sh -c \"" + action.replace("\"", "\\\"") + "; :\"; :")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        return p.exitValue();
    }

    private static boolean received(ServerSocketChannel server) throws IOException {
        try (SocketChannel c = server.accept()) {
            return c != null;
        }
    }

    static void delete(Path p) {
        if (p == null) {
            return;
        }
        try (var walk = Files.walk(p)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
        } catch (IOException e) {
            // scratch left in the temp directory
        }
    }
}
