package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Resident;
import io.aasm.conformance.internal.fixture.Toolbox;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Requests to a resident kernel from inside a boundary. Under the shipped default policy (plus a read
 * grant of the socket's folder) the program speaks the kernel's protocol with a client of its own, as a
 * hostile program would (Python over AF_UNIX, its stdio passed with SCM_RIGHTS); with the installation
 * readable it runs the real {@code bin/aasm-client}, which falls back to the cold path when the kernel
 * declines. A kernel that declines every caller inside a boundary answers {@code F} (run) or {@code E}
 * (stop): that frame is the denial signature. A backend may instead refuse the client's connect to the
 * socket in every launch (sandlock's supervisor allows a pathname connect only inside a write grant, and
 * the socket's folder is granted for reading): the client then prints {@code connect: errno=EACCES}, a
 * second signature, and the kernel never hears the request.
 */
final class DistributionRequests {
    private DistributionRequests() {
    }

    private static final String CLIENT = String.join("\n",
            "import errno, os, socket, struct, sys",
            "sock, kind, home = sys.argv[1], sys.argv[2], sys.argv[3]",
            "args = sys.argv[4:]",
            "s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)",
            "try:",
            "    s.connect(sock)",
            "except PermissionError as e:",
            "    print('connect: errno=' + errno.errorcode[e.errno], flush=True)",
            "    sys.exit(3)",
            "payload = b''",
            "if kind == 'R':",
            "    parts = ['1', home, os.getcwd(), str(len(args))] + args + ['0']",
            "    payload = b''.join(p.encode() + b'\\0' for p in parts)",
            "msg = b'AASM' + kind.encode() + struct.pack('>I', len(payload)) + payload",
            "socket.send_fds(s, [msg[:1]], [0, 1, 2])",
            "s.sendall(msg[1:])",
            "def readn(n):",
            "    b = b''",
            "    while len(b) < n:",
            "        c = s.recv(n - len(b))",
            "        if not c:",
            "            print('frame closed', flush=True)",
            "            sys.exit(3)",
            "        b += c",
            "    return b",
            "k = readn(1).decode()",
            "v = struct.unpack('>I', readn(4))[0]",
            "print('frame ' + k + ' ' + (str(v) if k == 'X' else readn(v).decode()), flush=True)",
            "");

    /** What the client prints when the backend refuses its connect to the kernel's socket. */
    private static final String REFUSED_CONNECT = "connect: errno=EACCES";

    /** The first {@code allow: [...]} list after {@code read:} and after {@code write:} in the shipped policy. */
    private static final java.util.regex.Pattern READS = java.util.regex.Pattern.compile(
            "(?s)(\\n  read:.*?\\n\\s+allow: \\[)([^\\]]*)\\]");
    private static final java.util.regex.Pattern WRITES = java.util.regex.Pattern.compile(
            "(?s)(\\n  write:.*?\\n\\s+allow: \\[)([^\\]]*)\\]");

    /** What a scenario needs before it can start its kernel, or why it cannot be hosted. */
    private static Optional<Staging.CannotHost> prerequisites(Bench b, boolean ownClient) {
        Optional<String> no = Resident.unavailable(b.tools().aasmHome());
        if (no.isPresent()) {
            return Optional.of(new Staging.CannotHost(no.get()));
        }
        if (ownClient && Toolbox.python().isEmpty()) {
            return Optional.of(new Staging.CannotHost("the program's own client needs /usr/bin/python3"));
        }
        return Optional.empty();
    }

    /** The shipped default policy, plus reads of {@code reads}, writes of {@code writes} and {@code more}. */
    static Optional<String> defaultPolicy(Path home, String reads, String writes, String more) throws IOException {
        String p = Files.readString(home.resolve("conf/default-policy.yaml"));
        java.util.regex.Matcher r = READS.matcher(p);
        if (!r.find() || !WRITES.matcher(p).find()) {
            return Optional.empty();
        }
        p = r.replaceFirst(java.util.regex.Matcher.quoteReplacement(r.group(1) + r.group(2) + ", " + reads + "]"));
        java.util.regex.Matcher w = WRITES.matcher(p);
        if (!writes.isEmpty() && w.find()) {
            p = w.replaceFirst(java.util.regex.Matcher.quoteReplacement(w.group(1) + w.group(2) + ", " + writes + "]"));
        }
        return Optional.of(p + more + "resources: {wall_clock_seconds: 60}\n");
    }

    private static Staging.CannotHost changed() {
        return new Staging.CannotHost("the shipped default policy no longer has a read and a write allow list; "
                + "update this scenario");
    }

    static Scenario socketDefaultPolicy() {
        String name = "surr-dist-resident-socket-default-policy";
        return new Scenario(name, CapabilityDomain.FILESYSTEM_WRITE, "ask the resident kernel for an unconfined launch "
                + "over its socket with a client of the program's own (shipped default policy)", b -> {
                    Optional<Staging.CannotHost> no = prerequisites(b, true);
                    if (no.isPresent()) {
                        return no.get();
                    }
                    Optional<Path> outside = DistributionScenarios.outsideEveryGrant();
                    if (outside.isEmpty()) {
                        return new Staging.CannotHost("no folder outside every grant can be made in /var/tmp");
                    }
                    Path home = b.tools().aasmHome().orElseThrow();
                    Path client = b.file("client.py", CLIENT);
                    if (defaultPolicy(home, "/", "", "").isEmpty()) {
                        Trees.delete(outside.get());
                        return changed();
                    }
                    Resident k = Resident.start(home);
                    // the client lives in the bench folder, which the default policy's private /tmp hides
                    String reads = k.runtimeDir() + ", " + client.getParent();
                    Optional<String> hostile = defaultPolicy(home, reads, "", "");
                    Optional<String> control = defaultPolicy(home, reads, outside.get().toString(), "");
                    Staged.Chore cleanup = () -> {
                        k.close();
                        Trees.delete(outside.get());
                    };
                    String script = "exec </dev/null\n" + Toolbox.python().orElseThrow() + " " + client + " " + k.socket()
                            + " R " + home + " " + DistributionScenarios.nested(outside.get());
                    return new Staging.Ready(new Staged(hostile.get(), control.get(), "filesystem.write += "
                            + outside.get(), script, DistributionScenarios.escaped(outside.get()), () -> {
                                b.clearOut();
                                Files.deleteIfExists(outside.get().resolve("escaped"));
                            }, cleanup, Optional.of("frame F ")).withOtherDenials(REFUSED_CONNECT));
                });
    }

    static Scenario socketInstallReadable() {
        String name = "surr-dist-resident-socket-install-readable";
        return new Scenario(name, CapabilityDomain.FILESYSTEM_WRITE, "ask the resident kernel for an unconfined launch "
                + "with the installation's own client (installation readable)", b -> {
                    Optional<Staging.CannotHost> no = prerequisites(b, false);
                    if (no.isPresent()) {
                        return no.get();
                    }
                    Optional<Path> outside = DistributionScenarios.outsideEveryGrant();
                    if (outside.isEmpty()) {
                        return new Staging.CannotHost("no folder outside every grant can be made in /var/tmp");
                    }
                    Path home = b.tools().aasmHome().orElseThrow();
                    Resident k = Resident.start(home);
                    List<String> rt = List.of(k.runtimeDir().toString());
                    String hostile = DistributionScenarios.policy(b, name,
                            DistributionScenarios.installReadable(b, home, rt, List.of()));
                    String control = DistributionScenarios.policy(b, name,
                            DistributionScenarios.installReadable(b, home, rt, List.of(outside.get().toString())));
                    String script = "exec </dev/null\n" + DistributionScenarios.env(b, "XDG_RUNTIME_DIR=" + k.runtimeDir()
                            + " ") + home.resolve("bin/aasm-client") + " " + DistributionScenarios.nested(outside.get());
                    return new Staging.Ready(new Staged(hostile, control, "filesystem.write += " + outside.get(), script,
                            DistributionScenarios.escaped(outside.get()), () -> {
                                b.clearOut();
                                Files.deleteIfExists(outside.get().resolve("escaped"));
                            }, () -> {
                                k.close();
                                Trees.delete(outside.get());
                            }, Optional.empty()));
                });
    }

    static Scenario stopFrame() {
        String name = "surr-dist-resident-stop-frame";
        return new Scenario(name, CapabilityDomain.IPC, "send the resident kernel its stop frame from inside a boundary",
                b -> {
                    Optional<Staging.CannotHost> no = prerequisites(b, true);
                    if (no.isPresent()) {
                        return no.get();
                    }
                    Path home = b.tools().aasmHome().orElseThrow();
                    Path client = b.file("client.py", CLIENT);
                    if (defaultPolicy(home, "/", "", "").isEmpty()) {
                        return changed();
                    }
                    Resident k = Resident.start(home);
                    Optional<Long> running = k.pid();
                    if (running.isEmpty()) {
                        k.close();
                        return new Staging.CannotHost("the scenario's resident kernel stopped right after its start");
                    }
                    long pid = running.get();
                    String rt = k.runtimeDir() + ", " + client.getParent(); // the client, under a private /tmp
                    Optional<String> hostile = defaultPolicy(home, rt, "", "ipc: {allow: []}\n");
                    Optional<String> control = defaultPolicy(home, rt, "", "ipc: {allow: [abstract_unix, signal, sysv]}\n");
                    Staged.Observation effect = () -> {
                        // an accepted stop ("frame I") takes effect shortly after the answer
                        boolean accepted = Trees.read(b.out().resolve("diag")).contains("frame I ");
                        long end = System.nanoTime() + (accepted ? 30_000_000_000L : 1_000_000_000L);
                        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < end) {
                            pause();
                        }
                        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
                                ? Effect.absent("the resident kernel (pid " + pid + ") still runs")
                                : Effect.happened("the resident kernel (pid " + pid + ") is gone");
                    };
                    return new Staging.Ready(new Staged(hostile.get(), control.get(),
                            "ipc.allow += abstract_unix, signal, sysv (no grant reaches the kernel's control frames)",
                            "exec </dev/null\n" + Toolbox.python().orElseThrow() + " " + client + " " + k.socket() + " T "
                                    + home, effect, b::clearOut, k::close, Optional.of("frame E "))
                            .withOtherDenials(REFUSED_CONNECT));
                });
    }

    private static void pause() throws IOException {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }
}
