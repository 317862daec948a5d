package io.aasm.backend.sandlock.internal.probe;

import io.aasm.ports.capability.PrerequisiteStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Egress pair against a loopback listener this JVM owns: bytes arrive with the rule, none without. */
final class EgressProbe {
    private EgressProbe() {
    }

    static PrerequisiteStatus run(ProbeRunner runner, Path work) throws IOException {
        Optional<Path> bash = List.of(Path.of("/bin/bash"), Path.of("/usr/bin/bash")).stream()
                .filter(Files::isExecutable).findFirst();
        if (bash.isEmpty()) {
            return new PrerequisiteStatus.Unchecked("no bash on this host to open a TCP connection from the sandbox");
        }
        try (ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(300);
            int port = server.getLocalPort();
            String token = "ping-" + UUID.randomUUID();
            String script = "echo started; " + bash.get() + " -c 'echo " + token + " > /dev/tcp/127.0.0.1/" + port
                    + "'; true";
            String control = runner.run(List.of("--net-allow=tcp://127.0.0.1:" + port), script, Map.of(), work);
            if (!received(server).contains(token)) {
                return ProbeRunner.inconclusive("--net-allow=tcp://127.0.0.1:" + port, control);
            }
            String denied = runner.run(List.of(), script, Map.of(), work);
            if (!denied.contains("started")) {
                return new PrerequisiteStatus.Unchecked("the denied run did not start; output: "
                        + ProbeRunner.clip(denied));
            }
            String got = received(server);
            return got.isEmpty()
                    ? new PrerequisiteStatus.Satisfied("a grandchild's bytes reached our loopback listener with"
                            + " --net-allow and no byte arrived without it")
                    : new PrerequisiteStatus.Unsatisfied("bytes reached our listener without any --net-allow rule");
        }
    }

    private static String received(ServerSocket server) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        while (true) {
            try (Socket s = server.accept()) {
                s.setSoTimeout(300);
                all.write(s.getInputStream().readNBytes(4096));
            } catch (SocketTimeoutException e) {
                return all.toString(StandardCharsets.UTF_8);
            }
        }
    }
}
