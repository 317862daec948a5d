package io.aasm.backend.sandlock.internal.discovery;

import io.aasm.ports.backend.ProvenanceStatus;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.function.Function;

/**
 * Finds sandlock through AA_SANDLOCK_BIN or PATH and decides whether it is usable: readable,
 * executable, prints a version, at least the pinned minimum, {@code sandlock check} says OK, and
 * (when the operator requires it) its digest is a pinned one. Each refusal names the fix.
 */
public final class Discovery {
    public static final String ENV_BIN = "AA_SANDLOCK_BIN";

    private final Function<String, Optional<String>> env;
    private final CommandRunner runner;
    private final BackendManifest manifest;
    private final boolean requireVerified;
    private final String install;
    private final Function<Path, Optional<String>> digests;
    private final Optional<AnswerCache> answers;

    /** Hashes the binary on every discovery. */
    public Discovery(Function<String, Optional<String>> env, CommandRunner runner, BackendManifest manifest,
                     boolean requireVerified) {
        this(env, runner, manifest, requireVerified, Discovery::sha256);
    }

    /** {@code digests}: the SHA-256 of the file found (a {@code DigestCache} in the backend). */
    public Discovery(Function<String, Optional<String>> env, CommandRunner runner, BackendManifest manifest,
                     boolean requireVerified, Function<Path, Optional<String>> digests) {
        this(env, runner, manifest, requireVerified, digests, Optional.empty());
    }

    /** {@code answers}: where sandlock's answers to {@code --version} and {@code check} are kept per boot. */
    public Discovery(Function<String, Optional<String>> env, CommandRunner runner, BackendManifest manifest,
                     boolean requireVerified, Function<Path, Optional<String>> digests, Optional<AnswerCache> answers) {
        this.answers = answers;
        this.digests = digests;
        this.env = env;
        this.runner = runner;
        this.manifest = manifest;
        this.requireVerified = requireVerified;
        this.install = "install sandlock " + manifest.pinnedVersion() + " from " + manifest.upstream() + "/releases";
    }

    /** The file that would be examined, or why there is none. Cheap: environment and stat calls only. */
    public Locate locate() {
        Optional<String> pinned = env.apply(ENV_BIN).filter(s -> !s.isEmpty());
        if (pinned.isPresent()) {
            Path p = Path.of(pinned.get());
            if (!p.isAbsolute()) {
                return new Locate(null, ENV_BIN + "=" + pinned.get() + " is not an absolute path; set it to the"
                        + " absolute path of the sandlock executable");
            }
            if (!Files.exists(p)) {
                return new Locate(null, ENV_BIN + "=" + p + " does not exist; " + install + " or point "
                        + ENV_BIN + " at the installed executable");
            }
            return new Locate(p, null);
        }
        for (String dir : env.apply("PATH").orElse("").split(":")) {
            if (dir.isEmpty()) {
                continue;
            }
            Path p = Path.of(dir, "sandlock");
            if (Files.exists(p) && !Files.isDirectory(p)) {
                return new Locate(p, null);
            }
        }
        return new Locate(null, "no `sandlock` executable on PATH; " + install + " or set " + ENV_BIN);
    }

    /** A located candidate ({@code path}) or the reason there is none ({@code missing}). */
    public record Locate(Path path, String missing) {
    }

    public Discovered discover() {
        Locate where = locate();
        if (where.path() == null) {
            return Discovered.Unavailable.because(where.missing());
        }
        Path p = where.path();
        if (!Files.isRegularFile(p)) {
            return Discovered.Unavailable.because(p + " is not a regular file; point " + ENV_BIN
                    + " at the sandlock executable itself");
        }
        if (!Files.isReadable(p)) {
            return Discovered.Unavailable.because(p + " is not readable, so its digest cannot be verified;"
                    + " make it readable (chmod a+r) or " + install);
        }
        if (!Files.isExecutable(p)) {
            return Discovered.Unavailable.because(p + " is not executable; chmod +x it or " + install);
        }
        Optional<String> digest = digests.apply(p);
        if (digest.isEmpty()) {
            return Discovered.Unavailable.because("cannot read " + p + " to compute its SHA-256; check its permissions");
        }
        CommandRunner.Output v = ask(p, digest.get(), "--version");
        Optional<Version> version = v.exitCode() == 0 ? Version.fromVersionOutput(v.stdout()) : Optional.empty();
        if (version.isEmpty()) {
            String got = v.exitCode() < 0 ? v.failure() : "exit " + v.exitCode() + ", output '"
                    + v.stdout().lines().findFirst().orElse("").strip() + "'";
            return new Discovered.Unavailable("`" + p + " --version` printed no sandlock version (expected `sandlock "
                    + manifest.pinnedVersion() + "`; got " + got + "); it is not a usable sandlock: " + install,
                    Optional.empty(), digest);
        }
        if (version.get().compareTo(manifest.minimumVersion()) < 0) {
            return new Discovered.Unavailable("sandlock " + version.get() + " at " + p + " is older than the minimum "
                    + manifest.minimumVersion() + " this adapter drives; " + install, version, digest);
        }
        CommandRunner.Output check = ask(p, digest.get(), "check");
        // `sandlock check` exits 0 even when unsupported (contract §1), so only the Status: line counts.
        Optional<String> status = check.stdout().lines().map(String::strip)
                .filter(l -> l.startsWith("Status:")).findFirst();
        if (status.isEmpty()) {
            return new Discovered.Unavailable("`sandlock check` printed no Status: line ("
                    + (check.exitCode() < 0 ? check.failure() : "exit " + check.exitCode())
                    + "); cannot tell whether this kernel supports sandlock", version, digest);
        }
        String value = status.get().substring("Status:".length()).strip();
        if (!value.equals("OK")) {
            return new Discovered.Unavailable("`sandlock check` reports status '" + value + "' instead of OK on this"
                    + " kernel (sandlock needs Landlock ABI 6); upgrade the kernel or run on a host where it is OK",
                    version, digest);
        }
        ProvenanceStatus prov = manifest.pinnedSha256().contains(digest.get())
                ? ProvenanceStatus.VERIFIED : ProvenanceStatus.UNVERIFIED;
        if (requireVerified && prov == ProvenanceStatus.UNVERIFIED) {
            return new Discovered.Unavailable("sandlock at " + p + " has SHA-256 " + digest.get() + ", which is not a"
                    + " pinned digest in isolation-backends.json, and require.verified.provenance is set; install a"
                    + " release whose digest is pinned, or record this digest after review", version, digest);
        }
        return new Discovered.Found(p, version.get(), digest.get(), prov, check.stdout());
    }

    /** sandlock's answer to {@code arg}: remembered for this boot and digest, else asked now (and kept if clean). */
    private CommandRunner.Output ask(Path p, String sha256, String arg) {
        if (answers.isEmpty()) {
            return runner.run(p, arg);
        }
        Optional<CommandRunner.Output> kept = answers.get().recall(p, sha256, arg);
        if (kept.isPresent()) {
            return kept.get();
        }
        CommandRunner.Output now = runner.run(p, arg);
        answers.get().keep(p, sha256, arg, now);
        return now;
    }

    public static Optional<String> sha256(Path p) {
        try (InputStream in = new DigestInputStream(Files.newInputStream(p), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return Optional.of(HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest()));
        } catch (IOException e) {
            return Optional.empty();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
