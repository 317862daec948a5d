package io.aasm.metadata.gate;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The licence gate run by the build on the assembled distribution:
 * {@code --backends FILE --artifacts FILE [--dist DIR]}. Exit 0 when clean, 1 listing every
 * violation, 2 on a usage error.
 */
public final class LicenceGate {
    private LicenceGate() {
    }

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        if (code != 0) {
            // Only a failure exits explicitly, so that an in-process runner (exec:java) is not torn down on success.
            System.exit(code);
        }
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Path backends = null;
        Path artifacts = null;
        Path dist = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (i + 1 >= args.length) {
                err.println("licence gate: " + a + " needs a value");
                return usage(err);
            }
            switch (a) {
                case "--backends" -> backends = Path.of(args[++i]);
                case "--artifacts" -> artifacts = Path.of(args[++i]);
                case "--dist" -> dist = Path.of(args[++i]);
                default -> {
                    err.println("licence gate: unknown argument '" + a + "'");
                    return usage(err);
                }
            }
        }
        if (backends == null || artifacts == null) {
            err.println("licence gate: --backends and --artifacts are required");
            return usage(err);
        }
        Violations v = new Violations();
        int scanned = 0;
        ObjectMapper mapper = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        Optional<JsonNode> b = read(mapper, backends, v);
        Optional<JsonNode> a = read(mapper, artifacts, v);
        List<ExternalBackend> external = b.map(n -> new BackendManifestCheck(v).check(n)).orElse(List.of());
        List<ArtifactManifestCheck.Listed> listed = a.map(n -> new ArtifactManifestCheck(v).check(n)).orElse(List.of());
        if (dist != null) {
            try {
                scanned = new DistributionScan(v, listed, external).scan(dist);
            } catch (IOException e) {
                v.add("cannot scan distribution " + dist + ": " + e.getMessage());
            }
        }
        if (v.isEmpty()) {
            out.println("licence gate: OK (" + external.size() + " external backend(s), " + listed.size()
                    + " third-party artifact(s)" + (dist == null ? ", no distribution scanned" : ", "
                    + scanned + " distribution file(s) scanned") + ")");
            return 0;
        }
        err.println("licence gate: FAILED with " + v.all().size() + " violation(s):");
        v.all().forEach(m -> err.println("  - " + m));
        return 1;
    }

    private static Optional<JsonNode> read(ObjectMapper mapper, Path file, Violations v) {
        try {
            JsonNode n = mapper.readTree(file.toFile());
            if (n == null || !n.isObject()) {
                v.add(file + ": must hold a JSON object");
                return Optional.empty();
            }
            return Optional.of(n);
        } catch (IOException e) {
            v.add(file + ": cannot read as JSON: " + e.getMessage().lines().findFirst().orElse(""));
            return Optional.empty();
        }
    }

    private static int usage(PrintStream err) {
        err.println("usage: LicenceGate --backends isolation-backends.json --artifacts third-party-artifacts.json"
                + " [--dist DIR]");
        return 2;
    }
}
