package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel's request log: one JSON line per request, accepted, refused and malformed alike, rotated by
 * size, and never an argument, an environment value or a file's content (a digest and counts instead).
 */
class ResidentRequestLogIT {
    private static final String SECRET = "s3cret-env-value-" + ProcessHandle.current().pid();
    private static final String ARG = "arg-marker-" + ProcessHandle.current().pid();
    private static ResidentKernel kernel;

    @BeforeAll
    static void startKernel() throws Exception {
        kernel = ResidentKernel.start(Map.of("AASM_JAVA_OPTS", "-Daasm.resident.max.connections=2"
                + " -Daasm.resident.log.max.bytes=4000 -Daasm.resident.log.files=2"));
    }

    @AfterAll
    static void stopKernel() throws Exception {
        kernel.close();
    }

    private static Path log() {
        return kernel.runtimeDir.resolve("aasm-requests.log");
    }

    /** Every line of the current and rotated log, parsed (a line that is not JSON fails the test). */
    private static List<JsonNode> lines() throws Exception {
        List<JsonNode> all = new ArrayList<>();
        for (Path p : List.of(log().resolveSibling("aasm-requests.log.1"), log())) {
            if (Files.exists(p)) {
                for (String l : Files.readAllLines(p)) {
                    JsonNode n = new ObjectMapper().readTree(l);
                    assertTrue(n.hasNonNull("time") && n.hasNonNull("event"), l);
                    all.add(n);
                }
            }
        }
        return all;
    }

    private static String everything() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (Path p : List.of(log().resolveSibling("aasm-requests.log.1"), log())) {
            if (Files.exists(p)) {
                sb.append(Files.readString(p));
            }
        }
        return sb.toString();
    }

    @Test
    void anAcceptedRunIsOneLineWithCountsAndADigestNeverItsArgumentsOrEnvironment(@TempDir Path dir) throws Exception {
        Path secretFile = dir.resolve("secret.txt");
        Files.writeString(secretFile, "file-content-" + SECRET);
        List<String> args = List.of("run", "exec", "--isolation", "none", "--", "/bin/sh", "-c",
                "cat " + secretFile + " >/dev/null; exit 3", ARG);
        List<String> cmd = new ArrayList<>(List.of(Aasm.DIST.resolve("bin/aasm-client").toString()));
        cmd.addAll(args);
        Map<String, String> env = new java.util.HashMap<>(kernel.env());
        env.put("AASM_LOG_TEST_SECRET", SECRET);
        Aasm.Result r = Aasm.command(dir, env, cmd);
        assertEquals(3, r.exit(), r.toString());
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        for (String a : args) {
            md.update(a.getBytes(StandardCharsets.UTF_8));
            md.update((byte) 0);
        }
        String digest = HexFormat.of().formatHex(md.digest());
        ResidentBoundsIT.await(() -> lines().stream().anyMatch(n -> digest.equals(n.path("args_sha256").asText())),
                "no line for the run");
        String content = everything();
        JsonNode line = lines().stream().filter(n -> digest.equals(n.path("args_sha256").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no line for the run:\n" + content));
        assertEquals("accepted", line.get("event").asText(), line.toString());
        assertEquals("R", line.get("kind").asText());
        assertEquals(args.size(), line.get("argc").asInt());
        assertTrue(line.get("envc").asInt() > 0, line.toString());
        assertEquals(3, line.get("status").asInt());
        assertTrue(line.get("uid").asInt() >= 0 && line.get("pid").asLong() > 0, line.toString());
        String all = everything();
        assertFalse(all.contains(SECRET), "an environment value (or file content) reached the log");
        assertFalse(all.contains("AASM_LOG_TEST_SECRET"), "an environment name reached the log");
        assertFalse(all.contains(ARG), "an argument reached the log");
        assertFalse(all.contains(secretFile.toString()), "an argument reached the log");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log())));
    }

    @Test
    void aMalformedRequestIsLoggedWithAFixedReason() throws Exception {
        int before = lines().size();
        try (SocketChannel ch = ResidentBoundsIT.connect(kernel)) {
            ch.write(ByteBuffer.wrap("NOPE-not-aasm".getBytes(StandardCharsets.UTF_8)));
            assertTrue(ResidentBoundsIT.answer(ch).startsWith("E aasm: resident kernel: not an aasm client request"));
        }
        ResidentBoundsIT.await(() -> lines().stream().anyMatch(n -> "no_magic".equals(n.path("reason").asText())),
                "no line for the malformed request");
        JsonNode n = lines().stream().filter(l -> "no_magic".equals(l.path("reason").asText())).findFirst().orElseThrow();
        assertEquals("malformed", n.get("event").asText(), n.toString());
        assertFalse(everything().contains("NOPE"), "what the peer sent reached the log");
        assertTrue(lines().size() > before);
    }

    @Test
    void aPeerRefusedAtTheConnectionBoundIsLogged() throws Exception {
        // control first: under the bound a status request is answered and logged as accepted
        try (SocketChannel ch = ResidentBoundsIT.connect(kernel)) {
            ch.write(ResidentBoundsIT.head('Q', 0));
            assertTrue(ResidentBoundsIT.answer(ch).startsWith("I running pid="));
        }
        try (SocketChannel a = ResidentBoundsIT.connect(kernel); SocketChannel b = ResidentBoundsIT.connect(kernel);
                SocketChannel c = ResidentBoundsIT.connect(kernel)) {
            // one of the three is over the bound of 2 (the kernel may not have let the control's go yet: more)
            String answer = ResidentBoundsIT.answer(c);
            assertTrue(answer.startsWith("B aasm: the resident kernel is serving its maximum of 2 connections"), answer);
        }
        ResidentBoundsIT.await(() -> lines().stream().anyMatch(n -> "max_connections".equals(n.path("reason").asText())),
                "no line for the refused peer");
        JsonNode n = lines().stream().filter(l -> "max_connections".equals(l.path("reason").asText())).findFirst()
                .orElseThrow();
        assertEquals("refused", n.get("event").asText());
        assertEquals(ProcessHandle.current().pid(), n.get("pid").asLong(), "the peer's pid as SO_PEERCRED gave it");
        assertTrue(lines().stream().anyMatch(l -> "Q".equals(l.path("kind").asText())
                && "accepted".equals(l.get("event").asText())), "the control's line");
    }

    @Test
    void theLogRotatesBySizeKeepingTwoFiles() throws Exception {
        for (int i = 0; i < 60; i++) {
            try (SocketChannel ch = ResidentBoundsIT.connect(kernel)) {
                ch.write(ResidentBoundsIT.head('Q', 0));
                ResidentBoundsIT.answer(ch);
            }
        }
        Path rotated = log().resolveSibling("aasm-requests.log.1");
        ResidentBoundsIT.await(() -> Files.exists(rotated), "the log never rotated");
        assertTrue(Files.size(rotated) <= 4000 && Files.size(log()) <= 4000);
        assertFalse(Files.exists(log().resolveSibling("aasm-requests.log.2")), "more than log.files=2 files");
        lines(); // and every kept line is JSON
    }
}
