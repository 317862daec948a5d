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

    private JsonNode next() throws IOException {
        while (true) {
            String line = in.readLine();
            if (line == null) {
                throw new IOException("QEMU's monitor closed");
            }
            JsonNode n = JSON.readTree(line);
            if (!n.has("event")) {
                return n;
            }
        }
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
