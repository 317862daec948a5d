package io.aasm.backend.container.internal.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which sockets count as the engine's, against a fake /proc. */
class EngineFootprintTest {
    @TempDir
    Path proc;

    private void process(String pid, String comm, long... inodes) throws Exception {
        Path p = Files.createDirectories(proc.resolve(pid).resolve("fd"));
        Files.writeString(proc.resolve(pid).resolve("comm"), comm + "\n");
        int fd = 3;
        for (long i : inodes) {
            Files.createSymbolicLink(p.resolve(Integer.toString(fd++)), Path.of("socket:[" + i + "]"));
        }
    }

    @Test
    void theEnginesListeningAndNamedSocketsCountItsClientEndsAndOthersDoNot() throws Exception {
        Files.createDirectories(proc.resolve("net"));
        Files.writeString(proc.resolve("net/unix"), String.join("\n",
                "Num       RefCount Protocol Flags    Type St Inode Path",
                "0000: 00000002 00000000 00010000 0001 01 101 /run/containerd/containerd.sock",
                "0000: 00000002 00000000 00010000 0001 01 102 @/containerd-shim/abc.sock",
                "0000: 00000002 00000000 00000000 0002 01 103 @bb5e3",
                "0000: 00000002 00000000 00010000 0001 01 104 /tmp/someone-else.sock",
                "0000: 00000002 00000000 00010000 0001 01 105 /run/docker.sock", ""));
        process("10", "dockerd", 105, 103);
        process("11", "containerd", 101, 102);
        process("12", "python3", 104);
        EngineFootprint.Footprint f = new EngineFootprint(proc).scan(Path.of("/run/docker.sock"));
        assertEquals(List.of(Path.of("/run/containerd/containerd.sock"), Path.of("/run/docker.sock")), f.sockets());
        assertEquals(List.of("@/containerd-shim/abc.sock"), f.abstractNames());
    }
}
