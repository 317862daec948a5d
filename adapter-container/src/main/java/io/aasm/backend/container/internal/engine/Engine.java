package io.aasm.backend.container.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Engine API calls the backend makes, on a version negotiated once: the engine's own
 * ({@code Api-Version} of {@code /_ping}) capped at the version this client was tested with, refused below
 * the oldest that has every field the hardened container needs.
 */
public final class Engine {
    /** Docker 20.10 (the engine this backend was tested with). */
    public static final ApiVersion TESTED = ApiVersion.parse("1.41");
    /** Mounts, wait conditions, AutoRemove, Init, PidsLimit: every field the launch uses. */
    public static final ApiVersion FLOOR = ApiVersion.parse("1.30");
    private static final Duration CALL = Duration.ofSeconds(30);
    static final ObjectMapper JSON = new ObjectMapper();

    private final Http http;
    private final ApiVersion version;
    private final String server;

    private Engine(Http http, ApiVersion version, String server) {
        this.http = http;
        this.version = version;
        this.server = server;
    }

    /** Pings the engine and negotiates the API version. */
    public static Engine connect(Path socket) throws IOException {
        Http http = new Http(socket);
        Http.Response ping = http.call("GET", "/_ping", Optional.empty(), "", Duration.ofSeconds(10));
        if (!ping.ok()) {
            throw new IOException("the engine at " + socket + " answered /_ping with " + ping.status());
        }
        ApiVersion theirs = ping.header("Api-Version").map(ApiVersion::parse).orElseThrow(() -> new IOException(
                "the engine at " + socket + " sent no Api-Version header: not a Docker-compatible engine"));
        if (theirs.compareTo(FLOOR) < 0) {
            throw new IOException("the engine at " + socket + " speaks API " + theirs + ", older than " + FLOOR
                    + " (Docker 17.06), the oldest with every field the hardened container needs; upgrade the engine");
        }
        ApiVersion use = theirs.compareTo(TESTED) > 0 ? TESTED : theirs;
        Engine probe = new Engine(http, use, ping.header("Server").orElse("unknown"));
        // An engine whose minimum is above our tested version (Docker 29 requires 1.44) gets its minimum.
        JsonNode v = probe.json("GET", "/version");
        ApiVersion min = ApiVersion.parse(v.path("MinAPIVersion").asText("1.12"));
        return min.compareTo(use) > 0 ? new Engine(http, min, probe.server) : probe;
    }

    public Http http() {
        return http;
    }

    public ApiVersion version() {
        return version;
    }

    public String server() {
        return server;
    }

    /** The path prefix every call uses, e.g. {@code /v1.41}. */
    public String prefix() {
        return "/v" + version;
    }

    public JsonNode versionInfo() throws IOException {
        return json("GET", "/version");
    }

    public JsonNode info() throws IOException {
        return json("GET", "/info");
    }

    public Optional<JsonNode> inspectImage(String ref) throws IOException {
        Http.Response r = http.call("GET", prefix() + "/images/" + ref + "/json", Optional.empty(), "", CALL);
        return r.status() == 404 ? Optional.empty() : Optional.of(parse(r, "inspect image " + ref));
    }

    /**
     * {@code docker import}: a root filesystem tar becomes an image tagged {@code repo:tag}; no registry. Podman's
     * compatible API (4.3) drops the tag: the image it answers with is then tagged explicitly.
     */
    public void importImage(byte[] tar, String repo, String tag) throws IOException {
        String q = "?fromSrc=-&repo=" + enc(repo) + "&tag=" + enc(tag);
        Http.Response r = http.call("POST", prefix() + "/images/create" + q, Optional.of(tar), "application/x-tar", CALL);
        if (!r.ok() || r.text().contains("\"error\"")) {
            throw new IOException("the engine could not import the image " + repo + ":" + tag + ": " + message(r));
        }
        java.util.regex.Matcher id = java.util.regex.Pattern.compile("\"id\":\"(sha256:[0-9a-f]{64})\"").matcher(r.text());
        if (inspectImage(repo + ":" + tag).isEmpty() && id.find()) {
            Http.Response t = http.call("POST", prefix() + "/images/" + id.group(1) + "/tag?repo=" + enc(repo) + "&tag="
                    + enc(tag), Optional.empty(), "", CALL);
            if (!t.ok()) {
                throw new IOException("the engine could not tag the imported image " + id.group(1) + ": " + message(t));
            }
        }
    }

    public String create(byte[] body) throws IOException {
        Http.Response r = http.call("POST", prefix() + "/containers/create", Optional.of(body), "application/json", CALL);
        JsonNode n = parse(r, "create the container");
        return n.path("Id").asText();
    }

    public LongPoll waitRemoved(String id) throws IOException {
        return LongPoll.open(http, "POST", prefix() + "/containers/" + id + "/wait?condition=removed");
    }

    public void start(String id) throws IOException {
        Http.Response r = http.call("POST", prefix() + "/containers/" + id + "/start", Optional.empty(), "", CALL);
        if (!r.ok() && r.status() != 304) {
            throw new IOException("the engine could not start the container: " + message(r));
        }
    }

    /** True when delivered; a container that is gone or no longer running is not an error here. */
    public boolean kill(String id, String signal) throws IOException {
        Http.Response r = http.call("POST", prefix() + "/containers/" + id + "/kill?signal=" + signal, Optional.empty(),
                "", CALL);
        return r.ok();
    }

    /** Force-removes the container with its anonymous volumes; true when it is gone (404 included). */
    public boolean remove(String id) throws IOException {
        Http.Response r = http.call("DELETE", prefix() + "/containers/" + id + "?force=1&v=1", Optional.empty(), "", CALL);
        return r.ok() || r.status() == 404;
    }

    public Optional<JsonNode> inspect(String id) throws IOException {
        Http.Response r = http.call("GET", prefix() + "/containers/" + id + "/json", Optional.empty(), "", CALL);
        return r.status() == 404 ? Optional.empty() : Optional.of(parse(r, "inspect container " + id));
    }

    public void resize(String id, int rows, int cols) throws IOException {
        http.call("POST", prefix() + "/containers/" + id + "/resize?h=" + rows + "&w=" + cols, Optional.empty(), "", CALL);
    }

    /** Every container (running or not) carrying {@code label=value}: id and labels. */
    public List<Map.Entry<String, JsonNode>> listLabelled(String label, String value) throws IOException {
        String filters = JSON.writeValueAsString(Map.of("label", List.of(label + "=" + value)));
        JsonNode arr = json("GET", "/containers/json?all=1&filters=" + enc(filters));
        List<Map.Entry<String, JsonNode>> out = new ArrayList<>();
        arr.forEach(c -> out.add(Map.entry(c.path("Id").asText(), c.path("Labels"))));
        return out;
    }

    private JsonNode json(String method, String path) throws IOException {
        Http.Response r = http.call(method, prefix() + path, Optional.empty(), "", CALL);
        return parse(r, method + " " + path);
    }

    private static JsonNode parse(Http.Response r, String what) throws IOException {
        if (!r.ok()) {
            throw new IOException("the engine could not " + what + ": " + message(r));
        }
        return JSON.readTree(r.body());
    }

    /** The engine's own message ({"message": "..."}), else the status and body. */
    static String message(Http.Response r) {
        try {
            JsonNode n = JSON.readTree(r.body());
            if (n != null && n.has("message")) {
                return n.get("message").asText() + " (HTTP " + r.status() + ")";
            }
        } catch (IOException | RuntimeException e) {
            // not JSON: show it as text
        }
        String t = r.text().strip();
        return "HTTP " + r.status() + (t.isEmpty() ? "" : ": " + (t.length() > 300 ? t.substring(0, 300) + "…" : t));
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
