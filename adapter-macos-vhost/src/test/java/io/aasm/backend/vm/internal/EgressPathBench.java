package io.aasm.backend.vm.internal;

import io.aasm.ports.transport.RelayEndpoint;
import io.aasm.ports.transport.TransportMediation;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Not a test (surefire skips *Bench): the proxy port's path measured paired against direct loopback in the
 * same run. One bash program makes {@value #TRIPS} one-line round trips, then sends {@value #BULK} bytes; a
 * server on the host times both from its side (first line to last echo; first to last bulk byte). Arm "vm":
 * the program in a guest, through the proxy port to a unix socket standing in for the session (preamble
 * first). Arm "direct": the same program on the host, to a TCP server on 127.0.0.1. The arms alternate.
 * Usage: main [rounds]. The figures include the guest's CPU (TCG here) running bash; the proxy itself is not
 * in either arm.
 */
public final class EgressPathBench {
    static final int TRIPS = 100;
    static final int BULK = 16 << 20;

    record Timing(double tripMs, double mibPerS) {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        QemuVmBackend b = new QemuVmBackend(Guests.settings("tcg"));
        Path dir = Files.createTempDirectory("vm-egress-bench");
        List<Timing> vm = new ArrayList<>();
        List<Timing> direct = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            vm.add(vmRound(b, dir.resolve("r" + i)));
            direct.add(directRound(dir));
            System.out.println("round " + i + ": vm " + vm.get(i) + " direct " + direct.get(i));
        }
        System.out.println("median vm: trip " + median(vm, true) + " ms, bulk " + median(vm, false) + " MiB/s");
        System.out.println("median direct: trip " + median(direct, true) + " ms, bulk " + median(direct, false)
                + " MiB/s");
        System.exit(0);
    }

    static String program(String host, int port) {
        return "exec 3<>/dev/tcp/" + host + "/" + port + "; i=0; while [ $i -lt " + TRIPS
                + " ]; do echo x >&3; read -r l <&3; i=$((i+1)); done; head -c " + BULK + " /dev/zero >&3";
    }

    static Timing vmRound(QemuVmBackend b, Path d) throws Exception {
        Files.createDirectories(d);
        byte[] preamble = new byte[32];
        new java.security.SecureRandom().nextBytes(preamble);
        try (ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            s.bind(UnixDomainSocketAddress.of(d.resolve("s.sock")));
            CompletableFuture<Timing> t = CompletableFuture.supplyAsync(() -> serve(s, preamble.length));
            int port = TransportMediation.DEFAULT_PORT;
            b.runMediated(MediatedEgressTest.spec(program("127.0.0.1", port), d, TransportMediation.mediated(port,
                    "bench")), new RelayEndpoint(d.resolve("s.sock"), preamble), Map.of(), (x, o, l) -> { });
            return t.get();
        }
    }

    static Timing directRound(Path d) throws Exception {
        try (ServerSocketChannel s = ServerSocketChannel.open()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = ((InetSocketAddress) s.getLocalAddress()).getPort();
            CompletableFuture<Timing> t = CompletableFuture.supplyAsync(() -> serve(s, 0));
            new ProcessBuilder("/bin/bash", "-c", program("127.0.0.1", port)).directory(d.toFile()).inheritIO()
                    .start().waitFor();
            return t.get();
        }
    }

    /** Skips {@code skip} bytes (the preamble), echoes TRIPS lines, then reads BULK bytes; times both. */
    static Timing serve(ServerSocketChannel s, int skip) {
        try (SocketChannel c = s.accept()) {
            ByteBuffer one = ByteBuffer.allocate(1);
            ByteBuffer pre = ByteBuffer.allocate(Math.max(skip, 1)).limit(skip);
            while (pre.hasRemaining() && c.read(pre) >= 0) {
                // the preamble
            }
            long t0 = 0;
            for (int i = 0; i < TRIPS; i++) {
                do {
                    one.clear();
                    if (c.read(one) < 0) {
                        throw new IOException("ended in the round trips");
                    }
                    if (t0 == 0) {
                        t0 = System.nanoTime();
                    }
                } while (one.get(0) != '\n');
                c.write(ByteBuffer.wrap(new byte[] {'y', '\n'}));
            }
            long trips = System.nanoTime() - t0;
            ByteBuffer b = ByteBuffer.allocate(1 << 16);
            long got = 0;
            long b0 = 0;
            while (got < BULK) {
                b.clear();
                int n = c.read(b);
                if (n < 0) {
                    break;
                }
                if (b0 == 0) {
                    b0 = System.nanoTime();
                }
                got += n;
            }
            double secs = (System.nanoTime() - b0) / 1e9;
            return new Timing(trips / 1e6 / TRIPS, got / 1048576.0 / secs);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static double median(List<Timing> ts, boolean trip) {
        List<Double> v = new ArrayList<>(ts.stream().map(t -> trip ? t.tripMs() : t.mibPerS()).toList());
        Collections.sort(v);
        return v.get(v.size() / 2);
    }
}
