package io.aasm.backend.container.internal.lower;

import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The container's filesystem view. Its root is an empty read-only image; what exists besides the
 * engine's own {@code /proc}, {@code /dev} and {@code /sys} is bound from the host at the same path:
 * <ul>
 * <li>reads and writes stated: read grants read-only, write grants read-write, private folders tmpfs;</li>
 * <li>only reads stated: the read grants, read-write (writes are not restricted, as with aasm-native);</li>
 * <li>only writes stated: the host's folders read-only, the write grants read-write;</li>
 * <li>neither: the host's folders read-write (the filesystem is not confined).</li>
 * </ul>
 * Whatever the policy: aasm's own state is read-only (a write grant inside it refuses), and the engine's
 * sockets and data root are masked wherever a bind would show them.
 */
public final class ViewPlanner {
    /** What the engine's /dev holds in every container; a grant of anything else under /dev is refused. */
    static final List<String> DEVICES = List.of("/dev", "/dev/null", "/dev/zero", "/dev/full", "/dev/random",
            "/dev/urandom", "/dev/tty", "/dev/ptmx", "/dev/pts", "/dev/shm", "/dev/mqueue", "/dev/fd", "/dev/stdin",
            "/dev/stdout", "/dev/stderr");

    public record Input(Optional<List<String>> read, Optional<List<String>> write, List<String> privateDirs,
                        List<Path> protectedPaths, List<Path> engineSockets, Optional<Path> engineDataRoot,
                        List<Grant> hostTree, List<String> hostMounts) {
        public Input {
            read = read.map(List::copyOf);
            write = write.map(List::copyOf);
            privateDirs = List.copyOf(privateDirs);
            protectedPaths = List.copyOf(protectedPaths);
            engineSockets = List.copyOf(engineSockets);
            hostTree = List.copyOf(hostTree);
            hostMounts = List.copyOf(hostMounts);
        }
    }

    public sealed interface Result {
        record Planned(List<Mount> mounts, Map<CapabilityDomain, List<String>> steps, List<String> general)
                implements Result {
        }

        record Refused(CapabilityDomain domain, String detail) implements Result {
        }
    }

    private enum Origin { HOST_TREE, READ, WRITE, PRIVATE, PROTECT, MASK }

    private record Entry(Mount mount, Origin origin) {
    }

    private final Map<String, Entry> byTarget = new LinkedHashMap<>();
    private final Map<CapabilityDomain, List<String>> steps = new EnumMap<>(CapabilityDomain.class);
    private final List<String> general = new ArrayList<>();

    private ViewPlanner() {
    }

    public static Result plan(Input in) {
        return new ViewPlanner().run(in);
    }

    private Result run(Input in) {
        boolean readStated = in.read().isPresent();
        boolean writeStated = in.write().isPresent();
        if (!readStated) {
            in.hostTree().forEach(g -> put(new Mount.Bind(g.real(), g.path(), writeStated), Origin.HOST_TREE));
            if (writeStated) {
                step(CapabilityDomain.FILESYSTEM_WRITE, "filesystem.read not stated: the host's folders bound read-only: "
                        + in.hostTree().stream().map(Grant::describe).collect(Collectors.joining(", ")));
            }
        }
        List<String> own = new ArrayList<>();
        Optional<Result> refused = grants(in.read().orElse(List.of()), false, writeStated, own, in.hostTree());
        if (refused.isEmpty()) {
            refused = grants(in.write().orElse(List.of()), true, true, own, in.hostTree());
        }
        if (refused.isPresent()) {
            return refused.get();
        }
        dropReadsInsideWrites();
        for (String d : in.privateDirs()) {
            put(new Mount.Tmpfs(d, false), Origin.PRIVATE);
        }
        if (!in.privateDirs().isEmpty()) {
            step(CapabilityDomain.FILESYSTEM_WRITE, "private folders (empty tmpfs of this launch, discarded with it): "
                    + String.join(", ", in.privateDirs()));
        }
        if (!own.isEmpty()) {
            step(readStated ? CapabilityDomain.FILESYSTEM_READ : CapabilityDomain.FILESYSTEM_WRITE, "the engine's own "
                    + String.join(", ", own) + " (not the host's): /proc of the container's processes, the engine's "
                    + "standard devices, /sys read-only");
        }
        Optional<Result> around = avoid(in.engineDataRoot());
        if (around.isPresent()) {
            return around.get();
        }
        Optional<Result> inside = protect(in.protectedPaths());
        submounts(in.hostMounts(), in.engineDataRoot());
        if (inside.isPresent()) {
            return inside.get();
        }
        Optional<Result> engine = mask(in.engineSockets());
        if (engine.isPresent()) {
            return engine.get();
        }
        if (readStated) {
            step(CapabilityDomain.FILESYSTEM_READ, "container root: an empty read-only image; nothing else of the "
                    + "host exists in the container");
        }
        return new Result.Planned(byTarget.values().stream().map(Entry::mount).toList(), steps, general);
    }

    private Optional<Result> grants(List<String> paths, boolean write, boolean readOnlyReads, List<String> own,
                                    List<Grant> hostTree) {
        CapabilityDomain d = write ? CapabilityDomain.FILESYSTEM_WRITE : CapabilityDomain.FILESYSTEM_READ;
        boolean readOnly = !write && readOnlyReads;
        Origin origin = write ? Origin.WRITE : Origin.READ;
        List<String> described = new ArrayList<>();
        for (String p : paths) {
            Optional<String> pseudo = Grant.engineOwn(p);
            if (pseudo.isPresent()) {
                Optional<String> why = pseudoRefusal(p, pseudo.get(), write);
                if (why.isPresent()) {
                    return Optional.of(new Result.Refused(d, why.get()));
                }
                if (!own.contains(pseudo.get())) {
                    own.add(pseudo.get());
                }
                continue;
            }
            Grant g;
            try {
                g = Grant.resolve(p);
            } catch (IOException e) {
                return Optional.of(new Result.Refused(d, "grant " + p + " cannot be resolved (" + e.getMessage()
                        + "): a grant must exist when the container is created"));
            }
            if (Grant.engineOwn(g.real()).isPresent()) {
                return Optional.of(new Result.Refused(d, "grant " + g.describe() + " leads into "
                        + Grant.engineOwn(g.real()).get() + ", which is the container's own, not the host's"));
            }
            if (g.real().equals("/")) {
                hostTree.forEach(h -> put(new Mount.Bind(h.real(), h.path(), readOnly), origin));
                described.add(g.describe() + " (the host's folders: " + hostTree.stream().map(Grant::path)
                        .collect(Collectors.joining(", ")) + ")");
                continue;
            }
            put(new Mount.Bind(g.real(), g.path(), readOnly), origin);
            described.add(g.describe());
        }
        if (!described.isEmpty()) {
            step(d, (readOnly ? "read-only" : "read-write") + " bind mounts at the same paths: "
                    + String.join(", ", described) + (!write && !readOnly ? " (filesystem.write not stated)" : ""));
        }
        return Optional.empty();
    }

    private static Optional<String> pseudoRefusal(String p, String root, boolean write) {
        if (root.equals("/sys") && write) {
            return Optional.of("write grant " + p + ": the container's /sys is the engine's, read-only");
        }
        if (root.equals("/dev") && DEVICES.stream().noneMatch(dev -> dev.equals("/dev") ? p.equals(dev)
                : Grant.under(p, dev))) {
            return Optional.of("grant " + p + ": only the engine's standard devices exist in a container ("
                    + String.join(", ", DEVICES) + ")");
        }
        return Optional.empty();
    }

    /**
     * Write grants include read of the same paths: a read grant inside a write grant (reached at the same
     * path) would otherwise be a read-only bind over part of a writable tree.
     */
    private void dropReadsInsideWrites() {
        List<Mount.Bind> writes = byTarget.values().stream().filter(e -> e.origin() == Origin.WRITE)
                .map(e -> (Mount.Bind) e.mount()).toList();
        byTarget.values().removeIf(e -> e.origin() == Origin.READ && e.mount() instanceof Mount.Bind r
                && writes.stream().anyMatch(w -> Grant.under(r.source(), w.source())
                && r.target().equals(w.target() + r.source().substring(w.source().length()))));
    }

    /**
     * The engine's data root (other containers' files, its images) never enters a view, and the engine refuses
     * a bind that holds it unless the host's mounts propagate (they often do not). A bind holding it is
     * therefore replaced by binds of every entry beside the path that leads to it, level by level; the
     * folders on that path are then the container's own (empty mount points), not the host's. A grant inside
     * the data root refuses.
     */
    private Optional<Result> avoid(Optional<Path> dataRoot) {
        if (dataRoot.isEmpty()) {
            return Optional.empty();
        }
        String root = dataRoot.get().toString();
        List<String> split = new ArrayList<>();
        for (Entry e : List.copyOf(byTarget.values())) {
            if (!(e.mount() instanceof Mount.Bind b)) {
                continue;
            }
            if (Grant.under(b.source(), root)) {
                return Optional.of(new Result.Refused(e.origin() == Origin.WRITE ? CapabilityDomain.FILESYSTEM_WRITE
                        : CapabilityDomain.FILESYSTEM_READ, "grant " + b.target() + " lies inside the container "
                        + "engine's data root " + root + " (other containers' files and the engine's state)"));
            }
            if (!Grant.under(root, b.source())) {
                continue;
            }
            byTarget.remove(b.target());
            String dir = b.source();
            String target = b.target();
            for (String rest = root.substring(dir.equals("/") ? 0 : dir.length()); !rest.isEmpty(); ) {
                String component = rest.substring(1).split("/", 2)[0];
                String next = (dir.equals("/") ? "" : dir) + "/" + component;
                for (Path sibling : HostTree.entries(Path.of(dir))) {
                    if (!sibling.toString().equals(next) && java.nio.file.Files.exists(sibling)) {
                        put(new Mount.Bind(sibling.toString(), target + "/" + sibling.getFileName(), b.readOnly()),
                                e.origin());
                    }
                }
                rest = rest.substring(component.length() + 1);
                dir = next;
                target = target + "/" + component;
            }
            split.add(b.target());
        }
        if (!split.isEmpty()) {
            general.add("the container engine's data root " + root + " left out: " + String.join(", ", split)
                    + " bound entry by entry beside it (the folders on the way are the container's own)");
        }
        return Optional.empty();
    }

    /** aasm's own state: read-only wherever a read-write bind shows it; a write grant inside it refuses. */
    private Optional<Result> protect(List<Path> protectedPaths) {
        List<String> made = new ArrayList<>();
        for (Path pp : protectedPaths) {
            String p = pp.toString();
            for (Entry e : List.copyOf(byTarget.values())) {
                if (!(e.mount() instanceof Mount.Bind b) || b.readOnly()) {
                    continue;
                }
                if (Grant.under(b.source(), p)) {
                    if (e.origin() == Origin.WRITE) {
                        return Optional.of(new Result.Refused(CapabilityDomain.FILESYSTEM_WRITE, "write grant "
                                + b.target() + (b.source().equals(b.target()) ? "" : " (resolved to " + b.source() + ")")
                                + " lies inside aasm's own state " + p + " (its install, cache or runtime files); "
                                + "no launch may write there"));
                    }
                    put(new Mount.Bind(b.source(), b.target(), true), e.origin());
                    made.add(b.target());
                } else if (Grant.under(p, b.source())) {
                    String target = b.target() + p.substring(b.source().length());
                    put(new Mount.Bind(p, target, true), Origin.PROTECT);
                    made.add(target);
                }
            }
        }
        if (!made.isEmpty()) {
            general.add("aasm's own state read-only inside the container: " + String.join(", ", made));
        }
        return Optional.empty();
    }

    /** Mounts beneath a read-only bind stay writable in a recursive bind: each is bound read-only again. */
    private void submounts(List<String> hostMounts, Optional<Path> dataRoot) {
        for (Entry e : List.copyOf(byTarget.values())) {
            if (!(e.mount() instanceof Mount.Bind b) || !b.readOnly()) {
                continue;
            }
            for (String m : hostMounts) {
                boolean engines = dataRoot.isPresent() && Grant.under(m, dataRoot.get().toString());
                if (!engines && !m.equals(b.source()) && Grant.under(m, b.source())) {
                    String target = b.target() + m.substring(b.source().equals("/") ? 0 : b.source().length());
                    if (!byTarget.containsKey(target)) {
                        put(new Mount.Bind(m, target, true), e.origin());
                    }
                }
            }
        }
    }

    /** The engine's sockets (root-equivalent), hidden wherever a bind would show them. */
    private Optional<Result> mask(List<Path> sockets) {
        List<String> masked = new ArrayList<>();
        for (Entry e : List.copyOf(byTarget.values())) {
            if (!(e.mount() instanceof Mount.Bind b)) {
                continue;
            }
            for (Path s : sockets) {
                if (Grant.under(s.toString(), b.source())) {
                    String target = b.target() + s.toString().substring(b.source().length());
                    put(new Mount.MaskFile(target), Origin.MASK);
                    masked.add(target);
                }
            }
        }
        if (!masked.isEmpty()) {
            general.add("the container engine's sockets masked (an empty read-only file over each): "
                    + String.join(", ", masked));
        }
        return Optional.empty();
    }

    private void put(Mount m, Origin o) {
        byTarget.remove(m.target()); // a later, more specific intent replaces an earlier one at the same path
        byTarget.put(m.target(), new Entry(m, o));
    }

    private void step(CapabilityDomain d, String s) {
        steps.computeIfAbsent(d, k -> new ArrayList<>()).add(s);
    }
}
