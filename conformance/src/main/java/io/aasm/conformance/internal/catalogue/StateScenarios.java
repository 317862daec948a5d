package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.report.IsolationReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a program leaves for aasm or for the next launch: a forged entry in the native backend's probe
 * cache under a write grant of aasm's cache, a forged or rewritten audit log ({@link AuditLogScenario}), and a symlink planted where a later policy grants a path.
 * The links are planted by the suite, which runs as the uid every launch runs as, so they are owned
 * exactly as a previous launch's would be. A grant followed through a link is honest only when the report
 * names the folder it resolved to: the effect is data written or read outside what the reports name.
 */
final class StateScenarios {
    private StateScenarios() {
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    static List<Scenario> all() {
        return List.of(probeCache(), AuditLogScenario.tamper(), link("surr-grant-symlink-write-planted", true),
                link("surr-grant-symlink-read-planted", false));
    }

    /** aasm's cache of this JVM: $XDG_CACHE_HOME/aasm, else ~/.cache/aasm (where the native backend probes). */
    static Path aasmCache() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && xdg.startsWith("/") ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("aasm");
    }

    private static Scenario probeCache() {
        String name = "surr-state-probe-cache-forgery";
        return new Scenario(name, CapabilityDomain.FILESYSTEM_WRITE,
                "plant a forged probe result in aasm's cache through a write grant of the cache", b -> {
                    if (b.needsActor().isPresent()) {
                        return b.needsActor().get();
                    }
                    Path aasm = aasmCache();
                    Path probes = aasm.resolve("probes");
                    try {
                        if (!Files.isDirectory(aasm)) {
                            Files.createDirectories(aasm, PosixFilePermissions.asFileAttribute(
                                    PosixFilePermissions.fromString("rwx------")));
                        }
                        Files.createDirectories(probes); // where the native backend keeps its probe results
                        aasm = aasm.toRealPath();
                        probes = probes.toRealPath();
                    } catch (IOException e) {
                        return new Staging.CannotHost("aasm's cache " + aasm + " cannot be prepared: " + e.getMessage());
                    }
                    Path forged = probes.resolve("aasm-native-conformance-" + HexFormat.of().toHexDigits(RANDOM.nextInt())
                            + ".json");
                    Staged.Observation effect = () -> Files.exists(forged)
                            ? Effect.happened("a forged probe result appeared in aasm's cache: " + forged)
                            : Effect.absent("nothing was planted in " + forged.getParent());
                    Staged.Chore remove = () -> Files.deleteIfExists(forged);
                    return new Staging.Ready(new Staged(
                            b.policy(name).section(b.filesystem(List.of(), List.of(aasm.toString()))).text(),
                            b.policy(name).section(b.filesystem(List.of(), List.of(probes.toString()))).text(),
                            "filesystem.write " + aasm + " -> " + probes + " (the probe cache itself)",
                            b.actor() + " plant " + forged + " '{\"schema\": \"aasm.native.probes/1\", \"forged\": true}'",
                            effect, () -> {
                                b.clearOut();
                                remove.run();
                            }, remove, Optional.of("plant: errno=EROFS")));
                });
    }

    private static Scenario link(String name, boolean write) {
        return new Scenario(name, write ? CapabilityDomain.FILESYSTEM_WRITE : CapabilityDomain.FILESYSTEM_READ,
                (write ? "write" : "read") + " through a grant whose path a previous launch replaced with a symlink", b -> {
                    Path target = b.dir(write ? "victim" : "secret").toRealPath();
                    // the folder a previous launch could write; the policy grants only the path inside it
                    Path link = b.dir("shared").resolve(write ? "sub" : "link");
                    String marker = (write ? "planted-" : "secret-") + b.tools().canary();
                    Staged.Chore plant = () -> {
                        Files.deleteIfExists(target.resolve("f"));
                        Files.deleteIfExists(link);
                        if (!write) {
                            Files.writeString(target.resolve("f"), marker + "\n");
                        }
                        Files.createSymbolicLink(link, target);
                    };
                    plant.run();
                    Path evidence = write ? target.resolve("f") : b.out().resolve("loot");
                    Staged.Observation effect = Staged.Observation.withReports((pre, post) -> {
                        if (!Trees.read(evidence).contains(marker)) {
                            return Effect.absent("no data " + (write ? "written to " : "read from ") + target);
                        }
                        return names(pre, target) || names(post, target)
                                ? Effect.absentAfterAction("the data went " + (write ? "to " : "from ") + target
                                        + " through the link, and the report names it as what the grant resolved to")
                                : Effect.happened("data " + (write ? "written to " : "read from ") + target
                                        + ", which the report does not name");
                    });
                    List<String> none = List.of();
                    List<String> viaLink = List.of(link.toString());
                    List<String> real = List.of(target.toString());
                    String hostile = b.policy(name).section(write ? b.filesystem(none, viaLink) : b.filesystem(viaLink, none))
                            .text();
                    String control = b.policy(name).section(write ? b.filesystem(none, real) : b.filesystem(real, none))
                            .text();
                    String script = write ? "echo " + marker + " > " + link + "/f" : "cat " + link + "/f > " + evidence;
                    return new Staging.Ready(new Staged(hostile, control, "filesystem." + (write ? "write " : "read ")
                            + link + " -> " + target + " (the real path)", script, effect, () -> {
                                b.clearOut();
                                plant.run();
                            }, Staged.Chore.nothing(), Optional.empty()));
                });
    }

    /** Whether a report's evidence names {@code path} as a whole path (not as the prefix of another). */
    static boolean names(IsolationReport r, Path path) {
        Pattern p = Pattern.compile("(^|[\\s(,:])" + Pattern.quote(path.toString()) + "($|[\\s),;])");
        return r.evidence().map(e -> e.records().stream().anyMatch(x -> p.matcher(x.detail()).find())).orElse(false);
    }
}
