package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A directory prot/ holding a file the suite owns, readable but not writable. The effect is any
 * difference in prot/, byte for byte (changed, removed or created files); the control adds prot/ to
 * the write grants.
 */
final class FilesystemWriteScenarios {
    private FilesystemWriteScenarios() {
    }

    private interface Action {
        String script(Path target, Path prot, Bench b);
    }

    static List<Scenario> all() {
        return List.of(
                write("fs-write-absolute", "overwrite the file by its absolute path",
                        (t, p, b) -> "echo pwned > " + t),
                write("fs-write-relative-append", "append to the file by a relative path",
                        (t, p, b) -> "cd " + b.ws() + " && echo pwned >> prot/t"),
                write("fs-write-dotdot", "overwrite the file through out/../prot",
                        (t, p, b) -> "echo pwned > " + b.out() + "/../prot/t"),
                write("fs-write-symlink", "plant a symlink in out/ and write through it",
                        (t, p, b) -> "ln -s " + t + " " + b.out() + "/sl && echo pwned > " + b.out() + "/sl"),
                new Scenario("fs-write-hardlink", CapabilityDomain.FILESYSTEM_WRITE,
                        "hard-link the file into out/ and append through the link", b -> stage(b, "fs-write-hardlink",
                        (t, p, bb) -> "ln " + t + " " + bb.out() + "/hl && echo pwned >> " + bb.out() + "/hl",
                        Optional.empty(), List.of(), b.ws())),
                write("fs-write-rename-in", "write a file in out/ and rename it over the protected file",
                        (t, p, b) -> "echo pwned > " + b.out() + "/n && mv -f " + b.out() + "/n " + t),
                write("fs-write-rename-out", "rename the protected file out of its directory",
                        (t, p, b) -> "mv -f " + t + " " + b.out() + "/stolen"),
                write("fs-write-truncate", "truncate(2) the file to zero bytes without opening it",
                        (t, p, b) -> "truncate -s 0 " + t),
                write("fs-write-unlink", "delete the protected file",
                        (t, p, b) -> "rm -f " + t),
                write("fs-write-create", "create a new file in the protected directory",
                        (t, p, b) -> "echo planted > " + p + "/new"),
                actor("fs-write-o-path-reopen", "open the file O_PATH and re-open /proc/self/fd/N for writing",
                        (t, p, b) -> b.actor() + " opath-write " + t + " pwned", "reopen: errno="),
                actor("fs-write-openat2", "open the file for writing with openat2(2)",
                        (t, p, b) -> b.actor() + " openat2-write " + t + " pwned", "openat2: errno="),
                actor("fs-write-io-uring", "truncate the file with an io_uring IORING_OP_OPENAT (O_TRUNC)",
                        (t, p, b) -> b.actor() + " uring-truncate " + t, "io_uring_setup: errno=EPERM"));
    }

    private static Scenario write(String name, String summary, Action action) {
        return new Scenario(name, CapabilityDomain.FILESYSTEM_WRITE, summary,
                b -> stage(b, name, action, Optional.empty()));
    }

    private static Scenario actor(String name, String summary, Action action, String denial) {
        return new Scenario(name, CapabilityDomain.FILESYSTEM_WRITE, summary, b -> {
            Optional<Staging.CannotHost> no = b.needsActor();
            // io_uring: a backend may deny the whole mechanism whatever the grant; EPERM from setup says so
            Optional<String> signature = denial.endsWith("EPERM") ? Optional.of(denial) : Optional.empty();
            // re-opening through /proc/self/fd needs /proc in both runs: only the write grant differs
            return no.isPresent() ? no.get() : stage(b, name, action, signature, List.of("/proc"), b.dir("prot"));
        });
    }

    private static Staging stage(Bench b, String name, Action action, Optional<String> denial) throws IOException {
        return stage(b, name, action, denial, List.of(), b.dir("prot"));
    }

    /**
     * {@code granted}: what the control may write — prot/, or (for a hard link, which never crosses mounts) the
     * workspace holding both prot/ and out/.
     */
    private static Staging stage(Bench b, String name, Action action, Optional<String> denial, List<String> extraRead,
                                 Path granted) throws IOException {
        Path prot = b.dir("prot");
        String original = "original-" + b.tools().canary() + "\n";
        Path target = b.file("prot/t", original);
        Map<String, String> before = Trees.snapshot(prot);
        List<String> read = new java.util.ArrayList<>(extraRead);
        read.add(prot.toString());
        String hostile = b.policy(name).section(b.filesystem(read, List.of())).text();
        String control = b.policy(name).section(b.filesystem(read, List.of(granted.toString()))).text();
        Staged.Observation effect = () -> Trees.difference(before, Trees.snapshot(prot))
                .map(d -> Effect.happened("prot/ differs: " + d))
                .orElseGet(() -> Effect.absent("prot/ unchanged byte for byte"));
        Staged.Chore reset = () -> {
            b.clearOut();
            Trees.delete(prot);
            b.file("prot/t", original);
        };
        return new Staging.Ready(new Staged(hostile, control, "filesystem.write += " + granted,
                action.script(target, prot, b), effect, reset, Staged.Chore.nothing(), denial));
    }
}
