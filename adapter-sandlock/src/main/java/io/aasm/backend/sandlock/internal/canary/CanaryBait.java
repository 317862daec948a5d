package io.aasm.backend.sandlock.internal.canary;

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
 * The supervisor's side of one launch's canaries: in the folder shared by the supervisor's launches beneath
 * the backend's own state (outside every grant: {@link CanaryChoice}; {@link CanaryHome}), the file the read
 * canary opens, the name (with this launch's nonce) the write canary tries to create and the FIFO the guard
 * reads the shim's record from; and the loopback listener the egress canary tries to reach. After the run it checks from outside what a canary
 * could have done that the record would not show.
 */
public final class CanaryBait implements AutoCloseable {
    private final CanaryChoice choice;
    private final Set<CanaryKind> kinds;
    private final String nonce;
    private final Path dir;
    private final Optional<CanaryListener> listener;
    private final CanaryOutside outside;

    private CanaryBait(CanaryChoice choice, Set<CanaryKind> kinds, String nonce, Path dir,
                       Optional<CanaryListener> listener) {
        this.choice = choice;
        this.kinds = kinds;
        this.nonce = nonce;
        this.dir = dir;
        this.listener = listener;
        // the FIFO is the guard's; its name is this launch's, removed with the rest
        this.outside = new CanaryOutside(kinds.contains(CanaryKind.FS_WRITE) ? Optional.of(writeFile())
                : Optional.empty(), listener, List.of(fifo()));
    }

    /**
     * Makes what the chosen canaries need for this launch: a nonce and, with an egress canary, a listener
     * (left out without a free port). The folder and the read canary's file are shared (CanaryHome).
     */
    public static CanaryBait open(CanaryChoice choice, Path root) throws IOException {
        String nonce = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        Path dir = CanaryHome.folder(root);
        Set<CanaryKind> kinds = EnumSet.copyOf(choice.kinds());
        Optional<CanaryListener> listener = Optional.empty();
        if (kinds.contains(CanaryKind.EGRESS)) {
            listener = CanaryListener.open(choice::granted);
            if (listener.isEmpty()) {
                kinds.remove(CanaryKind.EGRESS);
            }
        }
        return new CanaryBait(choice, kinds, nonce, dir, listener);
    }

    public Set<CanaryKind> kinds() {
        return kinds;
    }

    public String nonce() {
        return nonce;
    }

    /** The FIFO the guard makes, reads the first line of and removes; sandlock grants the program write to it. */
    public Path fifo() {
        return dir.resolve("record-" + nonce);
    }

    private Path readFile() {
        return CanaryHome.readFile(dir);
    }

    private Path writeFile() {
        return dir.resolve("write-" + nonce);
    }

    int port() {
        return listener.map(CanaryListener::port).orElse(0);
    }

    /** The shim's canary words (canary.c), placed between its filter and {@code --}. */
    public List<String> shimArgs() {
        List<String> out = new ArrayList<>(List.of("canary:fifo=" + fifo(), "canary:nonce=" + nonce));
        for (CanaryKind k : kinds) {
            out.add(switch (k) {
                case FS_READ -> "canary:read=" + readFile();
                case FS_WRITE -> "canary:write=" + writeFile();
                case EGRESS -> "canary:port=" + port();
                case SYSCALL -> "canary:sys=" + choice.syscall().orElseThrow().number();
                case PROCESS -> "canary:fork";
                case SIGNAL -> "canary:signal";
                case KEYRING -> "canary:keyring";
                case RLIMIT -> "canary:rlimit=" + CanaryChoice.RLIMIT_NOFILE + ":" + choice.openFiles().orElseThrow();
            });
        }
        return out;
    }

    /** How the canary line is judged: this launch's nonce, its planned domains, and what each attempted. */
    public CanaryRecords.Launch launch() {
        return new CanaryRecords.Launch(nonce, kinds.stream().map(CanaryKind::domain).collect(Collectors.toSet()),
                d -> attempt(CanaryKind.of(d)), WHERE);
    }

    private static final String WHERE = "inside sandlock's sandbox, by the process that then became the program, before it ran; the record is the"
            + " first line of this launch's FIFO, written before the program existed";

    /** What each kind attempted, for the evidence record. */
    public String attempt(CanaryKind kind) {
        return switch (kind) {
            case FS_READ -> "open for reading of " + readFile() + " (outside every grant)";
            case FS_WRITE -> "creation of " + writeFile() + " (outside every write grant)";
            case EGRESS -> "TCP connect to the supervisor's listener on 127.0.0.1:" + port() + " (not granted)";
            case SYSCALL -> choice.syscall().map(s -> s.name() + "(2), every argument -1").orElse("?")
                    + " (denied by the policy's deny list)";
            case PROCESS -> "fork(2) under --max-processes=1";
            case SIGNAL -> "signal 0 to sandlock's own process, outside the sandbox";
            case KEYRING -> "keyctl(2) on the caller's user keyring (sandlock's default blocklist)";
            case RLIMIT -> "raising the hard RLIMIT_NOFILE " + choice.openFiles().orElse(0) + " by one (needs "
                    + "CAP_SYS_RESOURCE)";
        };
    }

    /**
     * What a canary achieved that its record might not show: a file made, a connection made. Looked at once,
     * after the run (at the latest when the bait is closed); later calls give the same answer.
     */
    public Optional<String> escapedFromOutside() {
        return outside.escaped();
    }

    /** Closes the listener and removes this launch's names from the shared folder (the FIFO is the guard's). */
    @Override
    public void close() {
        outside.close();
    }
}
