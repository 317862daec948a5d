package io.aasm.backend.vm.internal.image;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The guest kernel, taken from a Debian kernel package installed on this host ({@code linux-image-<abi>-amd64}):
 * its image in {@code /boot} and its modules in {@code /lib/modules}. The generic flavour only: the cloud
 * flavour has no 9p. The newest installed one wins, so the choice is the same on every run.
 */
public record KernelSource(String release, Path image, Path modules, String packageName, String packageVersion,
                           Optional<String> packageSha256) {
    private static final Pattern GENERIC = Pattern.compile("vmlinuz-((\\d+)\\.(\\d+)\\.(\\d+)-(\\d+)-(amd64|arm64))");

    /** The installed generic kernel with the highest version, or why there is none. */
    public static Optional<KernelSource> find(Path bootDir, Path modulesDir, Path dpkgStatus, StringBuilder why) {
        if (!Files.isDirectory(bootDir)) {
            why.append(bootDir).append(" does not exist");
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(bootDir)) {
            List<Matcher> found = files.map(p -> GENERIC.matcher(p.getFileName().toString())).filter(Matcher::matches)
                    .filter(m -> Files.isDirectory(modulesDir.resolve(m.group(1)).resolve("kernel")))
                    .sorted(Comparator.comparing(KernelSource::versionKey)).toList();
            if (found.isEmpty()) {
                why.append("no Debian generic kernel package (vmlinuz-<abi>-amd64 or -arm64 in ").append(bootDir)
                        .append(" with its modules in ").append(modulesDir)
                        .append("); install one: apt-get install linux-image-amd64");
                return Optional.empty();
            }
            String release = found.get(found.size() - 1).group(1);
            String pkg = "linux-image-" + release;
            return Optional.of(new KernelSource(release, bootDir.resolve("vmlinuz-" + release),
                    modulesDir.resolve(release), pkg, DpkgStatus.version(dpkgStatus, pkg).orElse("unknown"),
                    DpkgStatus.field(dpkgStatus, pkg, "SHA256")));
        } catch (IOException e) {
            why.append("cannot list ").append(bootDir).append(": ").append(e.getMessage());
            return Optional.empty();
        }
    }

    public static Optional<KernelSource> find(StringBuilder why) {
        return find(Path.of("/boot"), Path.of("/lib/modules"), Path.of("/var/lib/dpkg/status"), why);
    }

    private static String versionKey(Matcher m) {
        return String.format("%05d.%05d.%05d.%05d", Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)));
    }
}
