package io.aasm.conformance.internal.catalogue;

import static io.aasm.conformance.internal.catalogue.StandIns.grant;
import static io.aasm.conformance.internal.catalogue.StandIns.clientPolicy;

import io.aasm.conformance.internal.fixture.Artifacts;
import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.StandInHost;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The "mediation" family (issue 14), part one: real tools through the supervisor's proxy. Each hostile run asks
 * for a destination the policy does not grant (a host, a port of a granted host, a name whose resolver answer is
 * loopback); its control grants exactly that one destination (or pins the name), and the tool then reaches the
 * stand-in host, which is the effect asserted: curl, {@code python3 -m pip download} from a local index, and
 * {@code git clone} over HTTP. Every refusal the report claims must be in its evidence as a denied record.
 * Without a proxy ({@code none}) the tools reach the stand-in directly: curl and git through a resolve entry the
 * proxied run ignores, pip by the stand-in's address.
 */
final class MediationScenarios {
    private MediationScenarios() {
    }

    static List<Scenario> all() {
        return List.of(curlHost(), curlPort(), pip(), git(), privateAnswer());
    }

    private static Staging ready(String hostile, String control, String grant, String script,
                                 Staged.Observation effect, Staged.Chore cleanup, String deniedDestination,
                                 Bench b) {
        return new Staging.Ready(new Staged(hostile, control, grant, script, effect, b::clearOut, cleanup,
                Optional.empty()).withAudit(StandIns.deniedRecordFor(deniedDestination)));
    }

    private static Scenario curlHost() {
        String name = "med-curl-ungranted-host";
        return new Scenario(name, CapabilityDomain.NETWORK_EGRESS, "curl an ungranted host through the proxy", b -> {
            Optional<Staging.CannotHost> no = StandIns.needs(StandIns.CURL);
            if (no.isPresent()) {
                return no.get();
            }
            StandInHost index = new StandInHost(StandIns.INDEX, b.dir("index"));
            StandInHost other = new StandInHost(StandIns.OTHER, b.dir("other"));
            String script = StandIns.prelude(b) + StandIns.CURL + " -sS --max-time 15 --resolve other.test:"
                    + other.port() + ":" + StandIns.OTHER + " -o " + b.out() + "/page http://other.test:" + other.port()
                    + "/loot";
            String granted = grant("index.test", index.port());
            return ready(clientPolicy(b, name, granted, StandIns.PINS), clientPolicy(b, name, granted + ", "
                    + grant("other.test", other.port()), StandIns.PINS), "network.egress += " + grant("other.test",
                    other.port()), script, StandIns.reached(other, "the ungranted host"), () -> {
                        index.close();
                        other.close();
                    }, "other.test", b);
        });
    }

    private static Scenario curlPort() {
        String name = "med-curl-ungranted-port";
        return new Scenario(name, CapabilityDomain.NETWORK_EGRESS, "curl another port of a granted host", b -> {
            Optional<Staging.CannotHost> no = StandIns.needs(StandIns.CURL);
            if (no.isPresent()) {
                return no.get();
            }
            StandInHost index = new StandInHost(StandIns.INDEX, b.dir("index"));
            StandInHost second = new StandInHost(StandIns.INDEX, b.dir("second"));
            String script = StandIns.prelude(b) + StandIns.CURL + " -sS --max-time 15 --resolve index.test:"
                    + second.port() + ":" + StandIns.INDEX + " -o " + b.out() + "/page http://index.test:"
                    + second.port() + "/admin";
            String granted = grant("index.test", index.port());
            return ready(clientPolicy(b, name, granted, StandIns.PINS), clientPolicy(b, name, granted + ", "
                    + grant("index.test", second.port()), StandIns.PINS), "network.egress += "
                    + grant("index.test", second.port()), script, StandIns.reached(second, "the ungranted port"), () -> {
                        index.close();
                        second.close();
                    }, "index.test", b);
        });
    }

    private static Scenario pip() {
        String name = "med-pip-ungranted-index";
        return new Scenario(name, CapabilityDomain.NETWORK_EGRESS,
                "python3 -m pip download from a package index the policy does not grant", b -> {
                    Optional<Staging.CannotHost> no = StandIns.needs(StandIns.PYTHON);
                    if (no.isPresent()) {
                        return no.get();
                    }
                    if (!io.aasm.conformance.internal.fixture.Outside.run(List.of(StandIns.PYTHON, "-m", "pip",
                            "--version")).startsWith("pip ")) {
                        return new Staging.CannotHost("python3 -m pip does not run here (the Debian package "
                                + "python3-pip; .ci/run installs it)");
                    }
                    Artifacts.packageIndex(b.dir("index"));
                    StandInHost index = new StandInHost(StandIns.INDEX, b.ws().resolve("index"));
                    StandInHost other = new StandInHost(StandIns.OTHER, b.dir("other"));
                    String script = StandIns.prelude(b) + "if [ -n \"$http_proxy\" ]; then H=index.test; else H="
                            + StandIns.INDEX + "; fi; " + StandIns.PYTHON + " -m pip download --no-deps "
                            + "--only-binary=:all: --no-cache-dir --disable-pip-version-check --no-input --timeout 10 "
                            + "--retries 0 --index-url http://$H:" + index.port() + "/simple/ --trusted-host $H -d "
                            + b.out() + "/dl " + Artifacts.PACKAGE + "==1.0";
                    String granted = grant("other.test", other.port());
                    return ready(clientPolicy(b, name, granted, StandIns.PINS), clientPolicy(b, name, granted + ", "
                            + grant("index.test", index.port()), StandIns.PINS), "network.egress += "
                            + grant("index.test", index.port()), script, StandIns.reached(index, "the package index"),
                            () -> {
                                index.close();
                                other.close();
                            }, "index.test", b);
                });
    }

    private static Scenario git() {
        String name = "med-git-ungranted-remote";
        return new Scenario(name, CapabilityDomain.NETWORK_EGRESS, "git clone over HTTP from a remote the policy does "
                + "not grant", b -> {
                    Optional<Staging.CannotHost> no = StandIns.needs(StandIns.GIT_BIN);
                    if (no.isPresent()) {
                        return no.get();
                    }
                    String problem = Artifacts.gitRepository(b.dir("git"), "stand-in remote");
                    if (!problem.isEmpty()) {
                        return new Staging.CannotHost(problem);
                    }
                    StandInHost remote = new StandInHost(StandIns.GIT, b.ws().resolve("git"));
                    StandInHost index = new StandInHost(StandIns.INDEX, b.dir("index"));
                    String script = StandIns.prelude(b) + StandIns.GIT_BIN + " -c http.curloptResolve=git.test:"
                            + remote.port() + ":" + StandIns.GIT + " clone -q http://git.test:" + remote.port()
                            + "/repo.git " + b.out() + "/clone";
                    String granted = grant("index.test", index.port());
                    return ready(clientPolicy(b, name, granted, StandIns.PINS), clientPolicy(b, name, granted + ", "
                            + grant("git.test", remote.port()), StandIns.PINS), "network.egress += "
                            + grant("git.test", remote.port()), script, StandIns.reached(remote, "the git remote"),
                            () -> {
                                remote.close();
                                index.close();
                            }, "git.test", b);
                });
    }

    /**
     * A granted name that is not pinned, whose resolver answer is this host's loopback ({@code localhost}): the
     * proxy refuses it; pinning the name to that address (the one grant added) admits it. The action clears
     * {@code NO_PROXY}, which would otherwise send {@code localhost} around the proxy to the program's own loopback.
     */
    private static Scenario privateAnswer() {
        String name = "med-private-resolver-answer";
        return new Scenario(name, CapabilityDomain.NETWORK_EGRESS,
                "reach a granted but unpinned name whose resolver answers a loopback address", b -> {
                    Optional<Staging.CannotHost> no = StandIns.needs(StandIns.CURL);
                    if (no.isPresent()) {
                        return no.get();
                    }
                    StandInHost local;
                    try {
                        local = new StandInHost("127.0.0.1", b.dir("local"));
                    } catch (IOException e) {
                        return new Staging.CannotHost("cannot listen on 127.0.0.1: " + e.getMessage());
                    }
                    String script = StandIns.prelude(b) + "NO_PROXY= no_proxy= " + StandIns.CURL + " -sS --max-time 15 "
                            + "-o " + b.out() + "/page http://localhost:" + local.port() + "/internal";
                    String granted = grant("localhost", local.port());
                    String pins = "  name_resolution: {hosts: {index.test: " + StandIns.INDEX + "}}\n";
                    String pinned = "  name_resolution: {hosts: {index.test: " + StandIns.INDEX
                            + ", localhost: 127.0.0.1}}\n";
                    return ready(clientPolicy(b, name, granted, pins), clientPolicy(b, name, granted, pinned),
                            "network.name_resolution.hosts += {localhost: 127.0.0.1}", script,
                            StandIns.reached(local, "the loopback service"), local::close, "localhost", b);
                });
    }
}
