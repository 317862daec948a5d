package io.aasm.testsupport.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;

/**
 * Which processes hold a TCP socket of this host, by their names ({@code /proc/<pid>/comm}): the socket is found
 * by its two ports in {@code /proc/net/tcp} and {@code tcp6} (the JDK's sockets are dual-stack, so IPv4 peers
 * appear there as mapped addresses), then among every process's descriptors. A test's server uses it to see who
 * holds the other end of its connection mid-transfer: the proxy's JVM, or a relay the socket was handed to.
 */
public final class SocketHolders {
    private SocketHolders() {
    }

    /** The names of the processes holding the socket whose local port is {@code local} and remote {@code remote}. */
    public static String of(int local, int remote) throws IOException {
        String inode = null;
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            for (String line : Files.readAllLines(Path.of(table))) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[1].endsWith(String.format(":%04X", local))
                        && f[2].endsWith(String.format(":%04X", remote))) {
                    inode = f[9];
                }
            }
        }
        TreeSet<String> names = new TreeSet<>();
        if (inode == null) {
            return "";
        }
        String link = "socket:[" + inode + "]";
        try (var procs = Files.list(Path.of("/proc"))) {
            for (Path d : (Iterable<Path>) procs::iterator) {
                if (!d.getFileName().toString().matches("\\d+")) {
                    continue;
                }
                try (var fds = Files.list(d.resolve("fd"))) {
                    for (Path fd : (Iterable<Path>) fds::iterator) {
                        try {
                            if (Files.readSymbolicLink(fd).toString().equals(link)) {
                                names.add(Files.readString(d.resolve("comm")).strip());
                            }
                        } catch (IOException gone) {
                            // closed while listed
                        }
                    }
                } catch (IOException gone) {
                    // the process ended, or its descriptors are not ours to list
                }
            }
        }
        return String.join(",", names);
    }
}
