package io.aasm.backend.container.internal.canary;

import io.aasm.support.canary.CanaryHome;
import io.aasm.support.canary.CanaryListener;
import io.aasm.support.canary.CanaryOutside;
import io.aasm.support.canary.CanaryRecords;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

/**
 * The supervisor's side of one container launch's canaries: the file the read canary opens, in a host
 * folder of aasm's own cache outside the container's view (made once per supervisor process and shared by
 * every launch: {@link CanaryHome}; docs/container.md, *Canaries*, says why that is as strong as a folder
 * per launch), the loopback listener on the host the egress canary tries to reach, and this JVM's pid,
 * outside the container's pid namespace, for the signal canary. The per-launch nonce binds the record and
 * names the write canary's file. After the run it checks from outside that no connection arrived and that
 * no file was created ({@link CanaryOutside}).
 */
public final class CanaryBait implements AutoCloseable {
    private final CanaryChoice choice;
    private final Set<CanaryKind> kinds;
    private final String nonce;
    private final Path dir;
    private final Optional<CanaryListener> listener;
    private final boolean inPlace;
    private final CanaryOutside outside;

    private CanaryBait(CanaryChoice choice, Set<CanaryKind> kinds, String nonce, Path dir,
                       Optional<CanaryListener> listener, boolean inPlace) {
        this.choice = choice;
        this.kinds = kinds;
        this.nonce = nonce;
        this.dir = dir;
        this.listener = listener;
        this.inPlace = inPlace;
        this.outside = new CanaryOutside(kinds.contains(CanaryKind.FS_WRITE) ? writeFile() : Optional.empty(), listener,
                List.of());
    }

    /** {@code inPlace}: the plan has no init to fork the program (processes none), so the init becomes it. */
    public static CanaryBait open(CanaryChoice choice, Path root, boolean inPlace) throws IOException {
        String nonce = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        // checked (a real folder of this user's, 0700, its file a regular file) on every launch, made at most once
        Path dir = choice.kinds().contains(CanaryKind.FS_READ) ? CanaryHome.folder(root) : root;
        Set<CanaryKind> kinds = EnumSet.copyOf(choice.kinds());
        Optional<CanaryListener> listener = Optional.empty();
        if (kinds.contains(CanaryKind.EGRESS)) {
            // a container is granted no host port (its loopback is its own): any free port is outside every grant
            listener = CanaryListener.open(port -> false);
        }
        return new CanaryBait(choice, kinds, nonce, dir, listener, inPlace);
    }

    /** Where the write canary tries to create its file: a read-only folder of the view. */
    private Optional<Path> writeFile() {
        return choice.writeDir().map(d -> d.resolve(".aasm-canary-" + nonce));
    }

    public Set<CanaryKind> kinds() {
        return kinds;
    }

    public String nonce() {
        return nonce;
    }

    private Path readFile() {
        return CanaryHome.readFile(dir);
    }

    private int port() {
        return listener.map(CanaryListener::port).orElse(0);
    }

    /** The init's canary words (init-canary.h), placed before its {@code --}. */
    public List<String> initWords() {
        List<String> out = new ArrayList<>(List.of("canary:nonce=" + nonce));
        for (CanaryKind k : kinds) {
            out.add(switch (k) {
                case FS_READ -> "canary:read=" + readFile();
                case FS_WRITE -> "canary:write=" + writeFile().orElseThrow();
                case EGRESS -> "canary:port=" + port();
                case SYSCALL -> "canary:sys=" + choice.syscall().orElseThrow().number();
                case SIGNAL -> "canary:signal=" + ProcessHandle.current().pid();
                case NAMES -> "canary:dns";
                case KEYRING -> "canary:keyring";
                case RLIMIT -> "canary:rlimit=" + choice.rlimit().orElseThrow().resource() + ":"
                        + choice.rlimit().orElseThrow().value();
                case PROCESS -> "canary:fork";
            });
        }
        return out;
    }

    /** How the canary line is judged: this launch's nonce, its planned domains, and what each attempted. */
    public CanaryRecords.Launch launch() {
        return new CanaryRecords.Launch(nonce, kinds.stream().map(CanaryKind::domain).collect(Collectors.toSet()),
                d -> attempt(CanaryKind.of(d)), inPlace ? IN_PLACE : FORKING);
    }

    private static final String RECORD = "; the record is the first line of the container's stderr, written before the"
            + " program existed and stripped by the relay";
    private static final String FORKING = "inside the container, by its init, before it forked the program" + RECORD;
    private static final String IN_PLACE = "inside the container, by its first process before it became the program by"
            + " execve (processes denied: no fork, the program is that same process)" + RECORD;

    /** What each kind attempted, for the evidence record. */
    public String attempt(CanaryKind kind) {
        return switch (kind) {
            case FS_READ -> "open for reading of the host file " + readFile() + " (outside the container's view)";
            case FS_WRITE -> "creation of " + writeFile().map(Path::toString).orElse("?")
                    + " (a read-granted folder, bound read-only, outside every write grant)";
            case EGRESS -> "TCP connect to 127.0.0.1:" + port() + ", where the supervisor listens on the host";
            case SYSCALL -> choice.syscall().map(s -> s.name() + "(2), every argument -1").orElse("?")
                    + " (denied by the launch's seccomp profile)";
            case SIGNAL -> "signal 0 to the supervisor's pid " + ProcessHandle.current().pid()
                    + ", outside the container's pid namespace";
            case NAMES -> "a DNS query datagram to 198.18.0.53:53, a resolver outside the host (no network)";
            case KEYRING -> "keyctl(2) on the caller's user keyring (denied by the launch's seccomp profile)";
            case RLIMIT -> choice.rlimit().map(r -> "raising the hard " + r.name() + " ulimit " + r.value()
                    + " by one (needs CAP_SYS_RESOURCE, which the container lacks)").orElse("?");
            case PROCESS -> "clone(2) without CLONE_THREAD (what fork(3) makes), fork(2) and vfork(2)"
                    + " (denied by the launch's seccomp profile)";
        };
    }

    /** A file or connection a canary made, seen from outside; looked at once, at the latest on close. */
    public Optional<String> escapedFromOutside() {
        return outside.escaped();
    }

    /** Closes the listener and removes the write canary's file (made only through a broken boundary). */
    @Override
    public void close() {
        outside.close();
    }
}
