package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Outside;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A secret outside every read grant, reached through each spelling of its path. The effect is the
 * secret's bytes arriving in out/loot; the control grants read of the secret's directory (for the
 * hard link, write: creating a link across directories needs the write side's "refer" right).
 */
final class FilesystemReadScenarios {
    private FilesystemReadScenarios() {
    }

    /** What the grandchild runs, given the secret file, the secret dir and out/. */
    private interface Action {
        String script(Path secret, Path secretDir, Bench b);
    }

    static List<Scenario> all() {
        return List.of(
                read("fs-read-absolute", "cat the secret by its absolute path",
                        (s, d, b) -> "cat " + s + " > " + loot(b)),
                read("fs-read-relative", "cat the secret by a path relative to the workspace",
                        (s, d, b) -> "cd " + b.ws() + " && cat secret/s > " + loot(b)),
                read("fs-read-dotdot", "cat the secret through out/../secret",
                        (s, d, b) -> "cat " + b.out() + "/../secret/s > " + loot(b)),
                read("fs-read-symlink", "plant a symlink to the secret in out/ and read through it",
                        (s, d, b) -> "ln -s " + s + " " + b.out() + "/sl && cat " + b.out() + "/sl > " + loot(b)),
                hardlink(),
                withProc("fs-read-proc-self-root", "cat the secret through /proc/self/root",
                        (s, d, b) -> "cat /proc/self/root" + s + " > " + loot(b)),
                withProc("fs-read-proc-self-cwd", "cd into the secret's directory and read it through /proc/self/cwd",
                        (s, d, b) -> "cd " + d + " && cat /proc/self/cwd/s > " + loot(b)),
                bindAlias(),
                actor("fs-read-o-path-reopen", "open the secret O_PATH, then re-open /proc/self/fd/N for reading",
                        (s, d, b) -> b.actor() + " opath-read " + s + " " + loot(b)),
                actor("fs-read-openat2", "open the secret with openat2(2) instead of open(2)",
                        (s, d, b) -> b.actor() + " openat2-read " + s + " " + loot(b)));
    }

    static String loot(Bench b) {
        return b.out() + "/loot";
    }

    private static Scenario read(String name, String summary, Action action) {
        return new Scenario(name, CapabilityDomain.FILESYSTEM_READ, summary, b -> stage(b, name, action, false, List.of()));
    }

    /** The attack goes through /proc, so both runs may read /proc: only the secret's grant differs. */
    private static Scenario withProc(String name, String summary, Action action) {
        return new Scenario(name, CapabilityDomain.FILESYSTEM_READ, summary,
                b -> stage(b, name, action, false, List.of("/proc")));
    }

    private static Scenario actor(String name, String summary, Action action) {
        return new Scenario(name, CapabilityDomain.FILESYSTEM_READ, summary, b -> {
            Optional<Staging.CannotHost> no = b.needsActor();
            return no.isPresent() ? no.get() : stage(b, name, action, false, List.of("/proc"));
        });
    }

    private static Scenario hardlink() {
        String name = "fs-read-hardlink";
        return new Scenario(name, CapabilityDomain.FILESYSTEM_READ, "hard-link the secret into out/ and read the link",
                b -> stage(b, name, (s, d, bb) -> "ln " + s + " " + bb.out() + "/hl && cat " + bb.out() + "/hl > "
                        + loot(bb), true, List.of()));
    }

    /** The secret's directory bind-mounted at a second path; neither path is granted. */
    private static Scenario bindAlias() {
        String name = "fs-read-bind-alias";
        return new Scenario(name, CapabilityDomain.FILESYSTEM_READ,
                "read the secret through a bind mount of its directory at another path", b -> {
                    if (!"root".equals(System.getProperty("user.name"))) {
                        return new Staging.CannotHost("creating the bind-mount alias needs root (CAP_SYS_ADMIN)");
                    }
                    Path alias = b.dir("alias");
                    Path secretDir = b.dir("secret");
                    String mounted = Outside.run(List.of("mount", "--bind", secretDir.toString(), alias.toString()));
                    if (!Trees.read(Path.of("/proc/self/mountinfo")).contains(" " + alias + " ")) {
                        return new Staging.CannotHost("the bind mount could not be created: " + mounted.strip());
                    }
                    Staged.Chore unmount = () -> Outside.run(List.of("umount", "-l", alias.toString()));
                    // The control grants the alias: where only granted paths exist, the ungranted alias is absent,
                    // and where rules follow inodes (Landlock) it is the secret's own folder either way.
                    Staging s = stage(b, name, (sec, d, bb) -> "cat " + alias + "/s > " + loot(bb), false, List.of(),
                            alias);
                    if (s instanceof Staging.Ready r) {
                        Staged st = r.staged();
                        return new Staging.Ready(new Staged(st.hostilePolicy(), st.controlPolicy(), st.controlGrant(),
                                st.script(), st.effect(), st.reset(), unmount.andThen(st.cleanup()), st.denialSignature()));
                    }
                    unmount.run();
                    return s;
                });
    }

    private static Staging stage(Bench b, String name, Action action, boolean controlWrites, List<String> extra)
            throws IOException {
        // A hard link needs both ends in one granted tree: the control grants the workspace holding out/ and the
        // secret (two separate grants may be two mounts, and links never cross mounts).
        return stage(b, name, action, controlWrites, extra, controlWrites ? b.ws() : b.dir("secret"));
    }

    private static Staging stage(Bench b, String name, Action action, boolean controlWrites, List<String> extra,
                                 Path granted) throws IOException {
        String secret = "secret-" + b.tools().canary();
        Path secretDir = b.dir("secret");
        Path file = b.file("secret/s", secret + "\n");
        String hostile = b.policy(name).section(b.filesystem(extra, List.of())).text();
        String control = controlWrites
                ? b.policy(name).section(b.filesystem(extra, List.of(granted.toString()))).text()
                : b.policy(name).section(b.filesystem(concat(extra, granted.toString()), List.of())).text();
        String grant = (controlWrites ? "filesystem.write" : "filesystem.read") + " += " + granted;
        Staged.Observation effect = () -> {
            String got = Trees.read(Path.of(loot(b)));
            return got.contains(secret) ? Effect.happened("out/loot holds the secret's bytes")
                    : Effect.absent("out/loot " + (got.isEmpty() ? "is empty or missing" : "lacks the secret"));
        };
        return new Staging.Ready(new Staged(hostile, control, grant, action.script(file, secretDir, b), effect,
                b::clearOut, Staged.Chore.nothing(), Optional.empty()));
    }

    private static List<String> concat(List<String> a, String x) {
        List<String> out = new ArrayList<>(a);
        out.add(x);
        return out;
    }
}
