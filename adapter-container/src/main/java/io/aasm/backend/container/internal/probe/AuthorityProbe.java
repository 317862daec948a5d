package io.aasm.backend.container.internal.probe;

import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * What a program in a container holds, read by the program itself from {@code /proc/self} in a container
 * with no requirement stated: its capability sets, no_new_privs, seccomp mode and open descriptors. The
 * least-authority guarantees the backend's plans offer are offered only when this observation held here.
 */
public final class AuthorityProbe {
    /** The observation: empty unless every capability set was empty, no_new_privs set, a filter installed. */
    public record Observed(String status, List<Integer> descriptors) {
        public Observed {
            descriptors = List.copyOf(descriptors);
        }
    }

    private AuthorityProbe() {
    }

    public static ProbeResult run(ProbeRunner runner, Path scratchRoot) {
        Path s = null;
        try {
            s = Files.createTempDirectory(scratchRoot, "aasm-container-authority-");
            Path out = Files.createDirectories(s.resolve("out"));
            // ls has its own directory handle open while it lists: one descriptor above 2 is its own
            String action = "grep -E \"^(Cap|NoNewPrivs|Seccomp)\" /proc/self/status > " + out + "/status; ls /proc/self/fd > "
                    + out + "/fds";
            ExitDisposition d = runner.run(ProbeSuite.grandchild("/bin/sh", action, s, Map.of("PATH", "/usr/bin:/bin"),
                    List.of()));
            String status = Scratch.read(out.resolve("status"));
            TreeSet<Integer> fds = new TreeSet<>();
            for (String l : Scratch.read(out.resolve("fds")).split("\\s+")) {
                if (l.matches("\\d+")) {
                    fds.add(Integer.parseInt(l));
                }
            }
            Optional<String> why = unclean(status, fds);
            return why.isEmpty() ? ProbeResult.observed(status.strip().replace('\n', ' ').replace('\t', ' ')
                    + "; descriptors " + fds) : ProbeResult.inconclusive(why.get() + " (" + d + ")");
        } catch (IOException | LaunchException | RuntimeException e) {
            return ProbeResult.inconclusive("the authority probe could not run: " + e.getMessage());
        } finally {
            Scratch.delete(s);
        }
    }

    static Optional<String> unclean(String status, TreeSet<Integer> fds) {
        for (String set : List.of("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")) {
            if (!status.matches("(?s).*" + set + ":\\s*0+\\s.*")) {
                return Optional.of(set + " is not empty or not shown: " + status.strip().replace('\n', ' '));
            }
        }
        if (!status.matches("(?s).*NoNewPrivs:\\s*1\\s.*")) {
            return Optional.of("no_new_privs is not set");
        }
        if (!status.matches("(?s).*Seccomp:\\s*2\\s.*")) {
            return Optional.of("no seccomp filter is installed");
        }
        TreeSet<Integer> extra = new TreeSet<>(fds);
        extra.removeAll(List.of(0, 1, 2));
        if (!fds.containsAll(List.of(0, 1, 2)) || extra.size() > 1) {
            return Optional.of("descriptors beyond stdio were inherited: " + fds);
        }
        return Optional.empty();
    }
}
