package io.aasm.backend.landlockseccomp.internal.runtime;

import io.aasm.backend.landlockseccomp.internal.lower.Canaries;
import io.aasm.support.canary.CanaryListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The supervisor's side of a launch's canaries: the file the FS_READ canary tries to open, the path the
 * FS_WRITE canary tries to create, the listener the EGRESS canary tries to reach, and a nonce that ties
 * the records to this launch. After the start it checks from outside what the canaries could have done.
 */
public final class CanaryWitness implements AutoCloseable {
    private final Canaries planned;
    private final Set<Canaries.Kind> kinds;
    private final String nonce;
    private final Optional<Path> readFile;
    private final Optional<Path> writeFile;
    private final Optional<CanaryListener> listener;

    private CanaryWitness(Canaries planned, Set<Canaries.Kind> kinds, String nonce, Optional<Path> readFile,
                          Optional<Path> writeFile, Optional<CanaryListener> listener) {
        this.planned = planned;
        this.kinds = kinds;
        this.nonce = nonce;
        this.readFile = readFile;
        this.writeFile = writeFile;
        this.listener = listener;
    }

    /** Makes what the planned canaries need; a kind whose object cannot be made is left out, never faked. */
    public static Optional<CanaryWitness> open(Optional<Canaries> planned, PreparedFiles files) throws IOException {
        if (planned.isEmpty()) {
            return Optional.empty();
        }
        Canaries c = planned.get();
        String nonce = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        Set<Canaries.Kind> kinds = EnumSet.noneOf(Canaries.Kind.class);
        kinds.addAll(c.kinds());
        Optional<Path> read = Optional.empty();
        Optional<Path> write = Optional.empty();
        if (files.dir().isPresent()) {
            if (kinds.contains(Canaries.Kind.FS_READ)) {
                read = Optional.of(Files.writeString(files.dir().get().resolve("canary-read-" + nonce), nonce));
            }
            if (kinds.contains(Canaries.Kind.FS_WRITE)) {
                write = Optional.of(files.dir().get().resolve("canary-write-" + nonce));
            }
        } else {
            kinds.remove(Canaries.Kind.FS_READ);
            kinds.remove(Canaries.Kind.FS_WRITE);
        }
        Optional<CanaryListener> listener = Optional.empty();
        if (kinds.contains(Canaries.Kind.EGRESS)) {
            listener = CanaryListener.open(port -> c.grantedTcpPorts().contains(port));
            if (listener.isEmpty()) {
                kinds.remove(Canaries.Kind.EGRESS);
            }
        }
        return kinds.isEmpty() ? Optional.empty()
                : Optional.of(new CanaryWitness(c, kinds, nonce, read, write, listener));
    }

    public Set<Canaries.Kind> kinds() {
        return kinds;
    }

    public int mask() {
        return kinds.stream().mapToInt(Canaries.Kind::bit).reduce(0, (a, b) -> a | b);
    }

    public String nonce() {
        return nonce;
    }

    public Optional<Path> readFile() {
        return readFile;
    }

    public Optional<Path> writeFile() {
        return writeFile;
    }

    public int port() {
        return listener.map(CanaryListener::port).orElse(0);
    }

    public Optional<Canaries.Syscall> syscall() {
        return planned.syscall().filter(s -> kinds.contains(Canaries.Kind.SYSCALL));
    }

    /** What a canary achieved that the launcher's report would not show: a file made, a connection made. */
    public Optional<String> escapedFromOutside() {
        if (writeFile.isPresent() && Files.exists(writeFile.get())) {
            return Optional.of("filesystem_write: the canary created " + writeFile.get());
        }
        if (listener.isPresent()) {
            return listener.get().reached();
        }
        return Optional.empty();
    }

    /** What each kind attempted, for the evidence record. */
    public String attempt(Canaries.Kind kind) {
        return switch (kind) {
            case FS_READ -> "open for reading of " + readFile.map(Path::toString).orElse("?") + " (outside every grant)";
            case FS_WRITE -> "creation of " + writeFile.map(Path::toString).orElse("?") + " (outside every write grant)";
            case EGRESS -> "TCP connect to the supervisor's listener on 127.0.0.1:" + port() + " (not granted)";
            case SYSCALL -> syscall().map(s -> s.name() + "(2) with invalid arguments").orElse("?")
                    + " (answered EPERM by the filter)";
            case PROCESS -> "fork(2)";
            case SIGNAL -> "signal 0 to the launcher's init, outside the program's Landlock domain";
            case RESOURCE -> "raising a hard rlimit the plan lowered by one (needs CAP_SYS_RESOURCE, dropped)";
            case NAMES -> "a DNS query datagram to 198.18.0.53:53, a resolver address outside the host";
            case KEYRING -> "keyctl(2) on the caller's user keyring (answered EPERM by the baseline filter)";
        };
    }

    @Override
    public void close() {
        listener.ifPresent(CanaryListener::close);
        writeFile.ifPresent(w -> {
            try {
                Files.deleteIfExists(w);
            } catch (IOException e) {
                // removed with the launch's folder
            }
        });
    }
}
