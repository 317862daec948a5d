package io.aasm.backend.landlockseccomp.internal.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pinned names mean what they say: with a resolv.conf that names no server, the C library falls back to a
 * resolver on 127.0.0.1:53, and with RES_OPTIONS=use-vc (which the program may set itself) it asks it over
 * TCP, where no UDP rule applies. The generated nsswitch.conf ("hosts: files") keeps the C library from
 * asking DNS at all. Control: the same view without that one file sends the query to the listener.
 */
class LauncherNameServiceTest {
    @TempDir
    Path dir;

    @Test
    void theCLibraryNeverAsksDnsForAnUnpinnedName() throws Exception {
        ServerSocketChannel resolver;
        try {
            resolver = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 53));
        } catch (IOException e) {
            Assumptions.abort("environment cannot host this check: cannot listen on 127.0.0.1:53 (" + e.getMessage()
                    + ")");
            return;
        }
        java.util.concurrent.atomic.AtomicInteger queries = new java.util.concurrent.atomic.AtomicInteger();
        // The stand-in resolver hangs up at once: glibc waits for a TCP answer without a deadline otherwise.
        Thread answering = new Thread(() -> {
            while (true) {
                try (SocketChannel c = resolver.accept()) {
                    queries.incrementAndGet();
                } catch (IOException e) {
                    return;
                }
            }
        });
        answering.setDaemon(true);
        answering.start();
        try (resolver) {
            Path hosts = Files.writeString(dir.resolve("hosts"), "127.0.0.1\tlocalhost\n10.9.9.9\tpinned.test\n");
            Path resolv = Files.writeString(dir.resolve("resolv.conf"), "options attempts:1 timeout:1\n");
            Path nsswitch = Files.writeString(dir.resolve("nsswitch.conf"), "hosts: files\n");
            String script = "RES_OPTIONS=use-vc getent hosts unpinned.invalid; getent hosts pinned.test > "
                    + dir.resolve("pinned");
            PlanMessage.Builder view = LauncherFixture.sh(script).namespaces(EnumSet.of(PlanRecord.Namespace.MOUNT))
                    .viewRoot(1).bind(hosts.toString(), "/etc/hosts", true).bind(resolv.toString(), "/etc/resolv.conf", true);
            LauncherFixture.run(view.bind(nsswitch.toString(), "/etc/nsswitch.conf", true).build(), dir);
            assertEquals(0, queries.get(), "a query reached the resolver on 127.0.0.1:53");
            assertTrue(Files.readString(dir.resolve("pinned")).contains("10.9.9.9"), "pinned names still resolve");
            LauncherFixture.run(LauncherFixture.sh(script).namespaces(EnumSet.of(PlanRecord.Namespace.MOUNT))
                    .viewRoot(1).bind(hosts.toString(), "/etc/hosts", true)
                    .bind(resolv.toString(), "/etc/resolv.conf", true).build(), dir);
            assertTrue(queries.get() > 0, "control: without the nsswitch.conf the query goes to 127.0.0.1:53");
        }
    }
}
