package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Outside;
import io.aasm.conformance.internal.fixture.Trees;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A process outside the tree holding a secret at a known address (a stand-in for the supervisor). */
record Victim(Process process, String secret, String address, int length) {

    static Victim start(Bench b, String secret) throws IOException {
        Path addr = b.ws().resolve("victim-address");
        Process p = Outside.startWithoutCapabilities(List.of(b.actor(), "victim", addr.toString(), secret), Map.of());
        if (!Outside.awaitFile(addr, p)) {
            Outside.stop(p);
            return null;
        }
        String[] f = Trees.read(addr).trim().split(" ");
        for (int i = 0; i < 40 && (f.length != 2 || !Trees.read(addr).endsWith("\n")); i++) {
            pause(); // the file appears before its one line is complete
            f = Trees.read(addr).trim().split(" ");
        }
        if (f.length != 2) {
            Outside.stop(p);
            return null;
        }
        return new Victim(p, secret, f[0], Integer.parseInt(f[1]));
    }

    private static void pause() throws IOException {
        try {
            Thread.sleep(25);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    long pid() {
        return process.pid();
    }

    void stop() {
        Outside.stop(process);
    }
}
