package io.aasm.backend.landlockseccomp.internal.lower;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Decides the program's filesystem view from the filesystem grants (already resolved), the devices every
 * boundary gets, /proc, the files name resolution generates, aasm's own protected paths and the working
 * directory. The rule: a path the program may neither read nor write does not exist for it (ENOENT);
 * read grants are read-only mounts (so metadata writes fail with EROFS too), write grants read-write;
 * with only writes stated the host's root is there read-only. With only reads stated the view still holds
 * only the read grants (a path left in place could be reached by what Landlock does not check, such as
 * connecting to a pathname socket), mounted read-write because writes are not restricted.
 */
public final class ViewPlanner {
    /** Device nodes bound from the host's /dev into every view that confines the filesystem. */
    public static final List<String> DEVICES = List.of("/dev/null", "/dev/zero", "/dev/full", "/dev/random",
            "/dev/urandom", "/dev/tty");
    /** The private parts of the device set: a devpts instance, its ptmx, and a shared-memory tmpfs. */
    public static final List<String> PRIVATE_DEVICES = List.of("/dev/pts", "/dev/ptmx", "/dev/shm");

    private final List<View.Op> ops = new ArrayList<>();
    private final List<String> described = new ArrayList<>();

    /** What the planner needs to know about one launch. */
    public record Input(Optional<List<Grant>> read, Optional<List<Grant>> write, boolean freshProc,
                        List<String> privateDirs, List<String> generatedEtc, List<Grant> protectedPaths,
                        String workingDirectory) {
        public Input {
            read = read.map(List::copyOf);
            write = write.map(List::copyOf);
            privateDirs = List.copyOf(privateDirs);
            generatedEtc = List.copyOf(generatedEtc);
            protectedPaths = List.copyOf(protectedPaths);
        }

        boolean filesystemStated() {
            return read.isPresent() || write.isPresent();
        }
    }

    public static View plan(Input in) {
        return new ViewPlanner().build(in);
    }

    private View build(Input in) {
        View.Base base = in.read().isPresent() ? View.Base.EMPTY
                : in.write().isPresent() ? View.Base.HOST_READ_ONLY : View.Base.HOST_READ_WRITE;
        boolean writesStated = in.write().isPresent();
        described.add(switch (base) {
            case EMPTY -> writesStated ? "filesystem view: only granted paths exist (read grants read-only, write "
                    + "grants read-write); everything else is absent (ENOENT)"
                    : "filesystem view: only the read grants exist, read-write (writes are not restricted); "
                    + "everything else is absent (ENOENT)";
            case HOST_READ_ONLY -> "filesystem view: the host's tree read-only, write grants read-write";
            case HOST_READ_WRITE -> "private mount namespace over the host's tree";
        });
        List<String> visibleRo = new ArrayList<>();
        List<String> visibleRw = new ArrayList<>();
        if (base == View.Base.EMPTY) {
            bindReads(in, writesStated ? visibleRo : visibleRw, writesStated, false);
        } else {
            visibleRo.add("/");
            if (base == View.Base.HOST_READ_WRITE) {
                visibleRw.add("/");
            }
        }
        bindWrites(in, visibleRw, false);
        if (base == View.Base.EMPTY) {
            links(in);
        }
        boolean procVisible = covered("/proc", visibleRo) || covered("/proc", visibleRw)
                || grantsUnder(in, "/proc");
        if (in.freshProc() && procVisible) {
            if (base == View.Base.EMPTY) {
                ops.add(new View.Op(View.Kind.DIR, 0, "", "/proc"));
            }
            described.add("/proc: a fresh procfs of the program's own pid namespace");
        }
        if (in.filesystemStated()) {
            devices();
        }
        // After the grants that cover it (a write grant of /, say), so the private folder is not hidden by them.
        for (String dir : in.privateDirs()) {
            ops.add(new View.Op(View.Kind.TMPFS, View.NO_DEV, "mode=1777", dir));
            described.add(dir + ": a private, empty folder of this launch's own (discarded at its end)");
        }
        // Grants beneath a private folder are mounted on top of it, so they stay visible at their paths
        // (a project under /tmp with a private /tmp); mounted before it, the private folder would hide them.
        if (base == View.Base.EMPTY) {
            bindReads(in, writesStated ? visibleRo : visibleRw, writesStated, true);
        }
        bindWrites(in, visibleRw, true);
        for (String name : in.generatedEtc()) {
            ops.add(new View.Op(View.Kind.BIND, View.READ_ONLY | View.NO_DEV | View.NO_EXEC, View.GENERATED + name,
                    "/etc/" + name));
        }
        for (Grant p : in.protectedPaths()) {
            if (hostWritableAt(p.real(), visibleRw, in.privateDirs())) {
                ops.add(new View.Op(View.Kind.BIND, View.READ_ONLY | View.NO_DEV, p.real(), p.real()));
                described.add(p.real() + ": aasm's own state, read-only inside the boundary");
            }
        }
        if (base == View.Base.EMPTY && !covered(in.workingDirectory(), visibleRo)
                && !covered(in.workingDirectory(), visibleRw)) {
            ops.add(new View.Op(View.Kind.DIR, 0, "", in.workingDirectory()));
            described.add("working directory " + in.workingDirectory() + " is outside the grants: it exists as an "
                    + "empty, read-only folder");
        }
        return new View(base, ops, described);
    }

    /**
     * Binds of the read grants outside (or, {@code beneathPrivate}, beneath) the private folders: read-only when
     * writes are stated, read-write otherwise (writes are not restricted).
     */
    private void bindReads(Input in, List<String> visible, boolean readOnly, boolean beneathPrivate) {
        for (Grant g : byDepth(in.read().get())) {
            if (beneathPrivate == beneath(g.real(), in.privateDirs()) && !covered(g.real(), visible)
                    && !(in.freshProc() && under(g.real(), "/proc"))) {
                ops.add(new View.Op(View.Kind.BIND, (readOnly ? View.READ_ONLY : 0) | View.NO_DEV, g.real(),
                        g.real()));
                visible.add(g.real());
            }
        }
    }

    /** Read-write binds of the write grants outside (or, {@code beneathPrivate}, beneath) the private folders. */
    private void bindWrites(Input in, List<String> visibleRw, boolean beneathPrivate) {
        for (Grant g : byDepth(in.write().orElse(List.of()))) {
            if (beneathPrivate == beneath(g.real(), in.privateDirs()) && !covered(g.real(), visibleRw)
                    && !(in.freshProc() && under(g.real(), "/proc"))) {
                ops.add(new View.Op(View.Kind.BIND, View.NO_DEV, g.real(), g.real()));
                visibleRw.add(g.real());
            }
        }
    }

    /** Strictly beneath one of the private folders (a grant of the folder itself is replaced by it). */
    private static boolean beneath(String path, List<String> privateDirs) {
        return privateDirs.stream().anyMatch(d -> !path.equals(d) && under(path, d));
    }

    /**
     * Whether the program sees the host's tree, writable, at {@code path}: the deepest folder covering it among
     * the write grants and the private folders is a write grant. Beneath a private folder the host's files are
     * not there at all, so aasm's own state there must not be bound in (read-only or not).
     */
    private static boolean hostWritableAt(String path, List<String> visibleRw, List<String> privateDirs) {
        String grant = deepest(path, visibleRw);
        String priv = deepest(path, privateDirs);
        return grant != null && (priv == null || grant.length() > priv.length());
    }

    private static String deepest(String path, List<String> roots) {
        return roots.stream().filter(r -> under(path, r)).max(Comparator.comparingInt(String::length)).orElse(null);
    }

    /** Symlinks met while resolving grants, recreated so the paths as written work (e.g. /bin -> usr/bin). */
    private void links(Input in) {
        Set<String> done = new LinkedHashSet<>();
        List<Grant> all = new ArrayList<>(in.read().orElse(List.of()));
        all.addAll(in.write().orElse(List.of()));
        for (Grant g : all) {
            for (Grant.Link l : g.links()) {
                if (done.add(l.path())) {
                    ops.add(new View.Op(View.Kind.SYMLINK, 0, l.target(), l.path()));
                }
            }
        }
    }

    private void devices() {
        ops.add(new View.Op(View.Kind.TMPFS, View.NO_EXEC, "mode=0755,size=65536", "/dev"));
        for (String d : DEVICES) {
            ops.add(new View.Op(View.Kind.BIND, 0, d, d));
        }
        ops.add(new View.Op(View.Kind.DEVPTS, 0, "", "/dev/pts"));
        ops.add(new View.Op(View.Kind.SYMLINK, 0, "pts/ptmx", "/dev/ptmx"));
        ops.add(new View.Op(View.Kind.TMPFS, View.NO_DEV, "mode=1777", "/dev/shm"));
        ops.add(new View.Op(View.Kind.SYMLINK, 0, "/proc/self/fd", "/dev/fd"));
        ops.add(new View.Op(View.Kind.SYMLINK, 0, "/proc/self/fd/0", "/dev/stdin"));
        ops.add(new View.Op(View.Kind.SYMLINK, 0, "/proc/self/fd/1", "/dev/stdout"));
        ops.add(new View.Op(View.Kind.SYMLINK, 0, "/proc/self/fd/2", "/dev/stderr"));
        described.add("/dev: the standard device set (" + String.join(", ", DEVICES) + ") and a private "
                + String.join(", ", PRIVATE_DEVICES) + " of the boundary's own");
    }

    private static boolean grantsUnder(Input in, String dir) {
        return in.read().orElse(List.of()).stream().anyMatch(g -> under(g.real(), dir))
                || in.write().orElse(List.of()).stream().anyMatch(g -> under(g.real(), dir));
    }

    private static List<Grant> byDepth(List<Grant> grants) {
        return grants.stream().sorted(Comparator.comparingLong((Grant g) -> g.real().chars().filter(c -> c == '/')
                .count()).thenComparing(Grant::real)).toList();
    }

    /** Whether {@code path} is one of {@code roots} or lies beneath one (component-aware). */
    static boolean covered(String path, List<String> roots) {
        return roots.stream().anyMatch(r -> under(path, r));
    }

    static boolean under(String path, String root) {
        return root.equals("/") || path.equals(root) || path.startsWith(root + "/");
    }
}
