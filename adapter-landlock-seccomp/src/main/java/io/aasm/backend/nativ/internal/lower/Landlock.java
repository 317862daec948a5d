package io.aasm.backend.nativ.internal.lower;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Accumulates one Landlock ruleset across domains (filesystem, TCP ports, scopes); rules can only be
 * computed once every handled right is known, because a rule may grant only handled rights.
 */
final class Landlock {
    private final int abi;
    private boolean readStated;
    private boolean writeStated;
    private final Set<String> readPaths = new LinkedHashSet<>();
    private final Set<String> writePaths = new LinkedHashSet<>();
    private boolean netHandled;
    private final TreeSet<Integer> ports = new TreeSet<>();
    private long scoped;

    Landlock(int abi) {
        this.abi = abi;
    }

    Optional<String> filesystem(ControlRequirement r, NativePlan.Builder b) {
        boolean write = r.domain() == CapabilityDomain.FILESYSTEM_WRITE;
        List<String> paths = r.scope() instanceof Scope.Paths p ? p.paths() : List.of();
        if (!(r.scope() instanceof Scope.Paths || r.scope() instanceof Scope.WholeDomain)) {
            return Optional.of("scope " + r.scope().token() + " does not apply to the filesystem");
        }
        for (String path : paths) {
            if (!Files.exists(Path.of(path))) {
                return Optional.of("granted path " + path + " does not exist; create it or remove the grant");
            }
        }
        if (write) {
            writeStated = true;
            writePaths.addAll(paths);
        } else {
            readStated = true;
            readPaths.addAll(paths);
        }
        b.step(r.domain(), "landlock ABI " + abi + ": handle " + LandlockRights.describeFs(write
                ? LandlockRights.write(abi) : LandlockRights.READ) + "; grant "
                + (paths.isEmpty() ? "nothing" : String.join(", ", paths)));
        return Optional.empty();
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

    Optional<NativePlan.LandlockPlan> build() {
        long handled = handledFs();
        long net = netHandled ? LandlockRights.NET_CONNECT_TCP : 0;
        if (handled == 0 && net == 0 && scoped == 0) {
            return Optional.empty();
        }
        List<NativePlan.PathRule> rules = new ArrayList<>();
        for (String p : readPaths) {
            rules.add(new NativePlan.PathRule(p, forPath(p, LandlockRights.READ & handled)));
        }
        for (String p : writePaths) {
            rules.add(new NativePlan.PathRule(p, forPath(p, (LandlockRights.write(abi) | LandlockRights.READ) & handled)));
        }
        List<NativePlan.PortRule> portRules = new ArrayList<>();
        ports.forEach(p -> portRules.add(new NativePlan.PortRule(p, LandlockRights.NET_CONNECT_TCP)));
        return Optional.of(new NativePlan.LandlockPlan(abi, handled, net, scoped, rules, portRules));
    }

    /** The kernel rejects directory-only rights on a file rule; a file grant gets the file rights only. */
    private static long forPath(String path, long rights) {
        return Files.isDirectory(Path.of(path)) ? rights : rights & ~LandlockRights.DIRECTORY_ONLY;
    }

}
