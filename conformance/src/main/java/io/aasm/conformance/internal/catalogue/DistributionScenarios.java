package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Resident;
import io.aasm.conformance.internal.fixture.Toolbox;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.conformance.internal.fixture.Yaml;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * aasm itself as a way out: a confined program asks a resident kernel (started for the scenario, outside
 * every boundary) for {@code run exec --isolation none}, or sends it the stop frame, or runs the
 * installation's {@code bin/aasm} itself. The nested command tries to write its seccomp status into a
 * folder the suite owns outside every grant (not under /tmp, which the shipped default policy grants).
 * Hosted only when the suite runs inside an installed distribution ({@code bin/aasm conformance}, or
 * {@code aasm:conformance} in {@code bin/aasm shell}).
 */
final class DistributionScenarios {
    private DistributionScenarios() {
    }

    static List<Scenario> all() {
        return List.of(DistributionRequests.socketDefaultPolicy(), DistributionRequests.socketInstallReadable(),
                DistributionRequests.stopFrame(), coldPath());
    }

    /** A folder outside every grant of these policies, for the nested command to write into; empty if none. */
    static Optional<Path> outsideEveryGrant() {
        try {
            return Optional.of(Files.createTempDirectory(Path.of("/var/tmp"), "aasm-conformance-outside-"));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static String nested(Path outside) {
        return "run exec --isolation none -- /bin/sh -c 'grep Seccomp /proc/self/status > " + outside + "/escaped'";
    }

    static Staged.Observation escaped(Path outside) {
        return () -> {
            Path f = outside.resolve("escaped");
            return Files.exists(f) ? Effect.happened("the nested launch wrote outside every grant: "
                    + Trees.read(f).strip().replace('\t', ' ').replace('\n', ' '))
                    : Effect.absent("nothing was written to " + outside);
        };
    }

    /** Reads of the system, /proc, the installation, Java and {@code extra}; writes of out/ and {@code writes}. */
    static String installReadable(Bench b, Path home, List<String> extra, List<String> writes) {
        List<String> read = new ArrayList<>(Toolbox.systemReadPaths());
        read.add("/proc");
        read.add(home.toString());
        String java = System.getProperty("java.home");
        if (read.stream().noneMatch(r -> java.equals(r) || java.startsWith(r + "/"))) {
            read.add(java);
        }
        read.addAll(extra);
        List<String> write = new ArrayList<>(List.of(b.out().toString()));
        write.addAll(writes);
        return "filesystem:\n  read: {allow: " + Yaml.list(read) + "}\n  write: {allow: " + Yaml.list(write) + "}\n";
    }

    /** A JVM starting inside the boundary needs more than the suite's usual 20 s on a loaded host. */
    static String policy(Bench b, String name, String... sections) {
        Yaml y = b.policy(name);
        for (String s : sections) {
            y.section(s);
        }
        return y.section("resources: {wall_clock_seconds: 60}").text();
    }

    /** The environment of an aasm command run by the program: its own cache in out/, no CDS, no resident kernel. */
    static String env(Bench b, String extra) {
        return "env " + extra + "XDG_CACHE_HOME=" + b.out() + "/cache AASM_CDS=off HOME=" + b.out() + " JAVA_HOME="
                + System.getProperty("java.home") + " PATH=/usr/bin:/bin ";
    }

    /** The program runs the installation's bin/aasm itself (cold: no resident kernel involved). */
    private static Scenario coldPath() {
        String name = "surr-dist-cold-path";
        return new Scenario(name, CapabilityDomain.FILESYSTEM_WRITE,
                "run the installation's bin/aasm from inside and ask it for an unconfined launch", b -> {
                    Optional<Path> home = b.tools().aasmHome();
                    if (home.isEmpty()) {
                        return new Staging.CannotHost(Resident.unavailable(home).orElseThrow());
                    }
                    Optional<Path> outside = outsideEveryGrant();
                    if (outside.isEmpty()) {
                        return new Staging.CannotHost("no folder outside every grant can be made in /var/tmp");
                    }
                    String hostile = policy(b, name, installReadable(b, home.get(), List.of(), List.of()));
                    String control = policy(b, name, installReadable(b, home.get(), List.of(),
                            List.of(outside.get().toString())));
                    String script = "exec </dev/null\n" + env(b, "AASM_CLIENT=off ") + home.get().resolve("bin/aasm") + " "
                            + nested(outside.get());
                    return new Staging.Ready(new Staged(hostile, control, "filesystem.write += " + outside.get(), script,
                            escaped(outside.get()), () -> {
                                b.clearOut();
                                Files.deleteIfExists(outside.get().resolve("escaped"));
                            }, () -> Trees.delete(outside.get()), Optional.empty()));
                });
    }
}
