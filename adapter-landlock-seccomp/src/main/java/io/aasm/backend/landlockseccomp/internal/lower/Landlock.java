package io.aasm.backend.landlockseccomp.internal.lower;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Accumulates one Landlock ruleset across domains (filesystem, TCP ports, scopes); rules can only be
 * computed once every handled right is known, because a rule may grant only handled rights. Paths are the
 * real paths the view mounts, so each rule binds the very object the program sees.
 */
final class Landlock {
    private final int abi;
    private final PathReads reads;
    private boolean readStated;
    private boolean writeStated;
    private final Map<String, Long> wanted = new LinkedHashMap<>();
    /** Folders the view creates itself (private folders): no host path to ask whether they are folders. */
    private final java.util.Set<String> viewFolders = new java.util.HashSet<>();
    /** Read grants bound read-only where truncate changes nothing (ReadOnlyTruncate): their rule carries it. */
    private final java.util.Set<String> truncateToo = new java.util.HashSet<>();
    private boolean netHandled;
    private final TreeSet<Integer> ports = new TreeSet<>();
    private long scoped;

    Landlock(int abi) {
        this(abi, PathReads.DIRECT);
    }

    Landlock(int abi, PathReads reads) {
        this.abi = abi;
        this.reads = reads;
    }

    void read(List<Grant> grants) {
        readStated = true;
        grants.forEach(g -> want(g.real(), LandlockRights.READ));
    }

    void write(List<Grant> grants) {
        writeStated = true;
        grants.forEach(g -> want(g.real(), LandlockRights.write(abi) | LandlockRights.READ));
    }

    boolean filesystemHandled() {
        return readStated || writeStated;
    }

    /** The device set and generated files every confined view carries (listed in the report). */
    void implicit(String path, long rights) {
        want(path, rights);
    }

    /** A folder of the view's own (a private tmpfs), whatever the host has at that path. */
    void implicitFolder(String path, long rights) {
        viewFolders.add(path);
        want(path, rights);
    }

    /** Lets the kernel's open() check stop at these read grants; see {@link ReadOnlyTruncate} for why it is safe. */
    void truncateBeneathReadOnly(java.util.Set<String> paths) {
        truncateToo.addAll(paths);
    }

    private void want(String path, long rights) {
        wanted.merge(path, rights, (a, b) -> a | b);
    }

    int abi() {
        return abi;
    }

    void handleNet() {
        netHandled = true;
    }

    void port(int p) {
        ports.add(p);
    }

    String portSummary() {
        return ports.isEmpty() ? "(none)" : ports.size() <= 8 ? ports.toString() : ports.first() + ".." + ports.last()
                + " (" + ports.size() + " ports)";
    }

    void scope(long bits) {
        scoped |= bits;
    }

    long handledFs() {
        return (readStated ? LandlockRights.READ : 0) | (writeStated ? LandlockRights.write(abi) : 0);
    }

    Optional<LandlockSeccompPlan.LandlockPlan> build() {
        long handled = handledFs();
        long net = netHandled ? LandlockRights.NET_CONNECT_TCP : 0;
        if (handled == 0 && net == 0 && scoped == 0) {
            return Optional.empty();
        }
        List<LandlockSeccompPlan.PathRule> rules = new ArrayList<>();
        if (handled != 0) {
            wanted.forEach((p, rights) -> {
                long wantedHere = truncateToo.contains(p) ? rights | LandlockRights.TRUNCATE : rights;
                long allowed = viewFolders.contains(p) ? wantedHere & handled : forPath(p, wantedHere & handled);
                if (allowed != 0) {
                    rules.add(new LandlockSeccompPlan.PathRule(p, allowed));
                }
            });
        }
        List<LandlockSeccompPlan.PortRule> portRules = new ArrayList<>();
        ports.forEach(p -> portRules.add(new LandlockSeccompPlan.PortRule(p, LandlockRights.NET_CONNECT_TCP)));
        return Optional.of(new LandlockSeccompPlan.LandlockPlan(abi, handled, net, scoped, rules, portRules));
    }

    /** The kernel rejects directory-only rights on a file rule; a file grant gets the file rights only. */
    private long forPath(String path, long rights) {
        return reads.stat(Path.of(path)).directory() ? rights : rights & ~LandlockRights.DIRECTORY_ONLY;
    }
}
