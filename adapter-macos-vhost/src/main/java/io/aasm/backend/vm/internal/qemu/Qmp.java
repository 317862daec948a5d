package io.aasm.backend.vm.internal.qemu;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A minimal QMP client over the monitor socket QEMU connected to: the capabilities handshake, then one
 * command at a time; asynchronous events are skipped. A QEMU that dies mid-command ends the read with an
 * IOException.
 */
final class Qmp implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final SocketChannel socket;
    private final BufferedReader in;
    private final OutputStream out;
    /** Names of the events read while waiting for replies: a wait for an event must not miss one read early. */
    private final java.util.Set<String> seen = new java.util.HashSet<>();

    Qmp(SocketChannel socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedReader(new InputStreamReader(Channels.newInputStream(socket), StandardCharsets.UTF_8));
        this.out = Channels.newOutputStream(socket);
        JsonNode greeting = next();
        if (!greeting.has("QMP")) {
            throw new IOException("QEMU's monitor did not greet: " + greeting);
        }
        execute("qmp_capabilities", Map.of());
    }

    JsonNode execute(String command, Map<String, Object> arguments) throws IOException {
        ObjectNode cmd = JSON.createObjectNode().put("execute", command);
        if (!arguments.isEmpty()) {
            cmd.set("arguments", JSON.valueToTree(arguments));
        }
        out.write((JSON.writeValueAsString(cmd) + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        JsonNode reply = next();
        if (reply.has("error")) {
            throw new IOException("QEMU refused " + command + ": " + reply.path("error").path("desc").asText());
        }
        return reply.path("return");
    }

    /** Sets one migration capability (x-ignore-shared: the template's RAM is not part of the state). */
    void capability(String name, boolean state) throws IOException {
        execute("migrate-set-capabilities", Map.of("capabilities", java.util.List.of(Map.of("capability", name,
                "state", state))));
    }

    /** Polls query-migrate until it completes; a failure is an IOException with QEMU's reason. */
    void awaitMigration(long pollMillis) throws IOException, InterruptedException {
        while (true) {
            JsonNode st = execute("query-migrate", Map.of());
            String status = st.path("status").asText();
            if (status.equals("completed")) {
                return;
            }
            if (status.equals("failed") || status.equals("cancelled")) {
                throw new IOException("migration " + status + ": " + st.path("error-desc").asText());
            }
            Thread.sleep(pollMillis);
        }
    }

    /**
     * Loads a template's state from {@code uri} into a QEMU started with {@code -incoming defer} and returns
     * once the guest runs. Both commands go out in one write (QEMU answers them in order); the guest then starts
     * by itself when the state is loaded, which the RESUME event says (events reach a monitor once its handshake
     * is done, which it is here, and one read while a reply was awaited is remembered). A failed load ends
     * QEMU, and with it the wait, in an IOException.
     */
    void restore(String uri) throws IOException {
        ObjectNode cap = JSON.createObjectNode().put("execute", "migrate-set-capabilities");
        cap.set("arguments", JSON.valueToTree(Map.of("capabilities", java.util.List.of(Map.of("capability",
                "x-ignore-shared", "state", true)))));
        ObjectNode in = JSON.createObjectNode().put("execute", "migrate-incoming");
        in.set("arguments", JSON.valueToTree(Map.of("uri", uri)));
        out.write((JSON.writeValueAsString(cap) + "\n" + JSON.writeValueAsString(in) + "\n")
                .getBytes(StandardCharsets.UTF_8));
        out.flush();
        for (String command : new String[] {"migrate-set-capabilities", "migrate-incoming"}) {
            JsonNode reply = next();
            if (reply.has("error")) {
                throw new IOException("QEMU refused " + command + ": " + reply.path("error").path("desc").asText());
            }
        }
        while (!seen.contains("RESUME")) {
            if (!read().has("event")) {
                throw new IOException("QEMU's monitor sent a reply nothing asked for");
            }
        }
    }

    private JsonNode next() throws IOException {
        while (true) {
            JsonNode n = read();
            if (!n.has("event")) {
                return n;
            }
        }
    }

    /** One message, reply or event; an event's name is remembered. */
    private JsonNode read() throws IOException {
        String line = in.readLine();
        if (line == null) {
            throw new IOException("QEMU's monitor closed");
        }
        JsonNode n = JSON.readTree(line);
        if (n.has("event")) {
            seen.add(n.path("event").asText());
        }
        return n;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // the monitor ends with QEMU
        }
    }
}
