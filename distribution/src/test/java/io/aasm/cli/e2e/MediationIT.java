package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transport mediation through the built {@code bin/aasm}: {@code --no-proxy} and the protection section, a
 * confined launch whose curl reaches the granted stand-in host through the proxy while an ungranted one gets
 * 403 and sees nothing, and a launch without a boundary that is still mediated. Stand-in hosts listen on
 * 127.0.0.2 and 127.0.0.3; their names exist only in the policy's hosts table.
 */
class MediationIT {
    static final String CURL = "/usr/bin/curl";

    @TempDir
    Path dir;
    HttpServer granted;
    HttpServer other;
    final List<String> grantedHits = new ArrayList<>();
    final List<String> otherHits = new ArrayList<>();

    @BeforeEach
    void servers() throws IOException {
        granted = server("127.0.0.2", grantedHits, "granted-body");
        other = server("127.0.0.3", otherHits, "must-not-be-read");
    }

    @AfterEach
    void stop() {
        granted.stop(0);
        other.stop(0);
    }

    private static HttpServer server(String address, List<String> hits, String body) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getByName(address), 0), 8);
        s.createContext("/", ex -> {
            synchronized (hits) {
                hits.add(ex.getRequestMethod() + " " + ex.getRequestURI());
            }
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        s.start();
        return s;
    }

    private Path policy(String isolation) throws IOException {
        int g = granted.getAddress().getPort();
        Path p = dir.resolve("policy.yaml");
        Files.writeString(p, "apiVersion: aasm/v1\nkind: Policy\n" + isolation
                + "filesystem:\n  read: {allow: [/usr, /bin, /lib, /lib64, /etc, /proc, " + dir + "]}\n"
                + "  write: {allow: [" + dir + "]}\n"
                + "network:\n  egress: {allow: [{host: granted.test, port: " + g + "}]}\n"
                + "  name_resolution: {hosts: {granted.test: 127.0.0.2, other.test: 127.0.0.3}}\n"
                + "credentials: {delegate: [PATH]}\n");
        return p;
    }

    private String curls() {
        return CURL + " -sS --max-time 20 http://granted.test:" + granted.getAddress().getPort() + "/pkg; echo; "
                + CURL + " -sS --max-time 20 -o /dev/null -w '%{http_code}' http://other.test:"
                + other.getAddress().getPort() + "/secret; echo";
    }

    @Test
    void theProtectionSectionSaysWhatTheKernelDecided() throws Exception {
        Path p = policy("");
        Aasm.Result on = Aasm.run(Aasm.DIST, dir, Map.of(), "run", "exec", "--isolation", "process",
                "--isolation-backend", "aasm-native", "--policy", p.toString(), "--dry-run", "--", "true");
        assertEquals(0, on.exit(), on.toString());
        String protection = on.out().substring(on.out().indexOf("--- protection ---"),
                on.out().indexOf("--- execution isolation ---"));
        assertTrue(protection.contains("transport_mediation: on — the program's network egress leaves its boundary "
                + "only through the supervisor's proxy"), protection);
        assertTrue(protection.contains("proxy: 127.0.0.1:3128 inside the boundary"), protection);
        assertTrue(protection.contains("no_proxy_flag: not given"), protection);
        Aasm.Result off = Aasm.run(Aasm.DIST, dir, Map.of(), "run", "exec", "--isolation", "process",
                "--isolation-backend", "aasm-native", "--policy", p.toString(), "--dry-run", "--no-proxy", "--", "true");
        assertEquals(0, off.exit(), off.toString());
        assertTrue(off.out().contains("transport_mediation: none — the launch would be refused"), off.out());
        assertTrue(off.err().contains("warning:") && off.err().contains("granted.test"), off.err());
        Aasm.Result none = Aasm.run(Aasm.DIST, dir, Map.of(), "run", "exec", "--isolation", "none", "--policy",
                p.toString(), "--dry-run", "--", "true");
        assertTrue(none.out().contains("transport_mediation: on — the program is not confined"), none.out());
        assertTrue(none.out().contains("posture=no_boundary"), none.out());
    }

    @Test
    void aConfinedCurlReachesOnlyTheGrantedHostAndEveryAttemptIsRecorded() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of(CURL)),
                "environment cannot host this check: curl is not installed (.ci/run installs it)");
        Path report = dir.resolve("report.json");
        Aasm.Result r = Aasm.run(Aasm.DIST, dir, Map.of("PATH", "/usr/bin:/bin"), "run", "exec", "--isolation",
                "process", "--isolation-backend", "aasm-native", "--policy", policy("").toString(), "--report", "json",
                "--report-file", report.toString(), "--", "/bin/sh", "-c", curls());
        assertEquals(0, r.exit(), r.toString());
        assertEquals("granted-body\n403\n", r.out(), r.toString());
        assertEquals(List.of("GET /pkg"), grantedHits);
        assertEquals(List.of(), otherHits, "the ungranted host received nothing");
        String json = Files.readString(report);
        assertTrue(json.contains("\\\"destination\\\":\\\"granted.test\\\"") && json.contains(
                "\\\"verdict\\\":\\\"allowed\\\""), json);
        assertTrue(json.contains("\\\"destination\\\":\\\"other.test\\\"") && json.contains(
                "\\\"verdict\\\":\\\"denied\\\""), json);
        assertTrue(json.contains("2 connection attempt(s) reached the supervisor's proxy, 1 allowed, 1 denied"), json);
    }

    /**
     * The same through aasm-container (docs/container.md, "Egress through transport mediation"): the container
     * has no engine network, and its only way out is the supervisor's relay to the proxy. A curl that ignores the
     * proxy variables has no route. Controls: the granted host is reached by the same curl (the ungranted one
     * differs by its grant only), and with other.test granted too the same request reaches it.
     */
    @Test
    void aContainerCurlReachesOnlyTheGrantedHostThroughTheRelayAndEveryAttemptIsRecorded() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of(CURL)),
                "environment cannot host this check: curl is not installed (.ci/run installs it)");
        Assumptions.assumeTrue(System.getenv().getOrDefault("DOCKER_HOST", "").startsWith("unix://"),
                "environment cannot host this check: no container engine (set DOCKER_HOST=unix://<socket>)");
        Path report = dir.resolve("report.json");
        int g = granted.getAddress().getPort();
        String direct = CURL + " -sS --max-time 10 --noproxy '*' http://granted.test:" + g + "/direct 2>&1 "
                + "| grep -c -e 'unreachable' -e 'Failed to connect'";
        Aasm.Result r = Aasm.run(Aasm.DIST, dir, Map.of("PATH", "/usr/bin:/bin"), "run", "exec", "--isolation",
                "container", "--policy", policy("").toString(), "--report", "json", "--report-file",
                report.toString(), "--", "/bin/sh", "-c", curls() + "; " + direct);
        assertEquals(0, r.exit(), r.toString());
        assertEquals("granted-body\n403\n1\n", r.out(), r.toString());
        assertEquals(List.of("GET /pkg"), grantedHits, "the direct request never arrived");
        assertEquals(List.of(), otherHits, "the ungranted host received nothing");
        String json = Files.readString(report);
        assertTrue(json.contains("\"backend\":\"aasm-container\"") || json.contains("aasm-container"), json);
        assertTrue(json.contains("\\\"destination\\\":\\\"granted.test\\\"") && json.contains(
                "\\\"verdict\\\":\\\"allowed\\\""), json);
        assertTrue(json.contains("\\\"destination\\\":\\\"other.test\\\"") && json.contains(
                "\\\"verdict\\\":\\\"denied\\\""), json);
        assertTrue(json.contains("2 connection attempt(s) reached the supervisor's proxy, 1 allowed, 1 denied"), json);
        Path both = dir.resolve("both.yaml");
        Files.writeString(both, Files.readString(policy("")).replace("{host: granted.test, port: " + g + "}",
                "{host: granted.test, port: " + g + "}, {host: other.test, port: " + other.getAddress().getPort() + "}"));
        Aasm.Result control = Aasm.run(Aasm.DIST, dir, Map.of("PATH", "/usr/bin:/bin"), "run", "exec", "--isolation",
                "container", "--policy", both.toString(), "--", "/bin/sh", "-c", curls());
        assertEquals("granted-body\n200\n", control.out(), control.toString());
        assertEquals(List.of("GET /secret"), otherHits, "control: granted, the same request reaches it");
    }

    /**
     * The same through aasm-qemu-vm (docs/vm.md, "Egress through transport mediation"): the guest has no network
     * device, and its only way out is the agent's proxy port, relayed over the control channel to the session.
     * A curl that ignores the proxy variables has no route. Controls as for the container: the granted host is
     * reached by the same curl, and with other.test granted too the same request reaches it.
     */
    @Test
    void aGuestCurlReachesOnlyTheGrantedHostThroughTheProxyPortAndEveryAttemptIsRecorded() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of(CURL)),
                "environment cannot host this check: curl is not installed (.ci/run installs it)");
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/qemu-system-x86_64")),
                "environment cannot host this check: qemu-system-x86_64 is not installed (.ci/run installs it)");
        Aasm.Result probe = Aasm.run(Aasm.DIST, dir, Map.of(), "probe", "--backend", "aasm-qemu-vm", "--refresh");
        Assumptions.assumeTrue(probe.exit() == 0 && !probe.out().contains("unavailable"),
                "environment cannot host this check: aasm-qemu-vm is unavailable here\n" + probe);
        Path report = dir.resolve("report.json");
        int g = granted.getAddress().getPort();
        String direct = CURL + " -sS --max-time 10 --noproxy '*' http://granted.test:" + g + "/direct 2>&1 "
                + "| grep -c -e 'unreachable' -e 'Failed to connect'";
        Aasm.Result r = Aasm.run(Aasm.DIST, dir, Map.of("PATH", "/usr/bin:/bin"), "run", "exec", "--isolation",
                "vm", "--policy", policy("").toString(), "--report", "json", "--report-file",
                report.toString(), "--", "/bin/sh", "-c", curls() + "; " + direct);
        assertEquals(0, r.exit(), r.toString());
        assertEquals("granted-body\n403\n1\n", r.out(), r.toString());
        assertEquals(List.of("GET /pkg"), grantedHits, "the direct request never arrived");
        assertEquals(List.of(), otherHits, "the ungranted host received nothing");
        String json = Files.readString(report);
        assertTrue(json.contains("aasm-qemu-vm"), json);
        assertTrue(json.contains("\\\"destination\\\":\\\"granted.test\\\"") && json.contains(
                "\\\"verdict\\\":\\\"allowed\\\""), json);
        assertTrue(json.contains("\\\"destination\\\":\\\"other.test\\\"") && json.contains(
                "\\\"verdict\\\":\\\"denied\\\""), json);
        assertTrue(json.contains("2 connection attempt(s) reached the supervisor's proxy, 1 allowed, 1 denied"), json);
        Path both = dir.resolve("both.yaml");
        Files.writeString(both, Files.readString(policy("")).replace("{host: granted.test, port: " + g + "}",
                "{host: granted.test, port: " + g + "}, {host: other.test, port: " + other.getAddress().getPort() + "}"));
        Aasm.Result control = Aasm.run(Aasm.DIST, dir, Map.of("PATH", "/usr/bin:/bin"), "run", "exec", "--isolation",
                "vm", "--policy", both.toString(), "--", "/bin/sh", "-c", curls());
        assertEquals("granted-body\n200\n", control.out(), control.toString());
        assertEquals(List.of("GET /secret"), otherHits, "control: granted, the same request reaches it");
        Aasm.Result noProxy = Aasm.run(Aasm.DIST, dir, Map.of("PATH", "/usr/bin:/bin"), "run", "exec", "--isolation",
                "vm", "--no-proxy", "--policy", policy("").toString(), "--", "/bin/sh", "-c", curls());
        assertTrue(noProxy.exit() != 0 && noProxy.out().isEmpty(), "--no-proxy with a grant ran in a guest\n" + noProxy);
    }

    @Test
    void withoutABoundaryTheTrafficIsStillMediatedUnlessSwitchedOff() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of(CURL)),
                "environment cannot host this check: curl is not installed (.ci/run installs it)");
        Path p = policy("");
        Aasm.Result r = Aasm.run(Aasm.DIST, dir, Map.of("PATH", "/usr/bin:/bin"), "run", "exec", "--isolation",
                "none", "--policy", p.toString(), "--", "/bin/sh", "-c", curls());
        assertEquals(0, r.exit(), r.toString());
        assertEquals("granted-body\n403\n", r.out(), r.toString());
        assertEquals(List.of(), otherHits);
        Aasm.Result off = Aasm.run(Aasm.DIST, dir, Map.of("PATH", "/usr/bin:/bin"), "run", "exec", "--isolation",
                "none", "--no-proxy", "--policy", p.toString(), "--", "/bin/sh", "-c", "env | grep -ci _proxy; :");
        assertEquals("0\n", off.out(), off.toString());
        assertFalse(off.err().contains("transport mediation"), off.err());
    }
}
