package io.aasm.backend.landlockseccomp.internal.lower;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The nsswitch.conf of a launch whose names are pinned: the host's, with the hosts database reduced to the
 * file. Without it the C library would still ask DNS (for example over TCP when the program sets
 * RES_OPTIONS=use-vc, falling back to a resolver on the host's loopback when resolv.conf names none).
 */
final class NameService {
    private static volatile String cached;

    private NameService() {
    }

    static String filesOnly() {
        String c = cached;
        if (c == null) {
            c = filesOnly(read(Path.of("/etc/nsswitch.conf")));
            cached = c;
        }
        return c;
    }

    static String filesOnly(List<String> host) {
        List<String> out = new ArrayList<>();
        out.add("# aasm: names resolve only from the pinned /etc/hosts");
        for (String line : host) {
            if (!line.strip().startsWith("hosts:")) {
                out.add(line);
            }
        }
        out.add("hosts: files");
        return String.join("\n", out) + "\n";
    }

    private static List<String> read(Path p) {
        try {
            return Files.readAllLines(p);
        } catch (IOException e) {
            return List.of();
        }
    }
}
