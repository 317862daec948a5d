package io.aasm.backend.landlockseccomp.internal.lower;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The read grants whose Landlock rule may also carry {@code truncate} without changing what the program can do,
 * so that the kernel's check of each open() stops at the grant instead of walking to the root.
 *
 * <p>Why it costs: Landlock asks for {@code truncate} on every open() once the ruleset handles it (so that a later
 * ftruncate can be decided), and a right is only refused after every folder up to the root has been checked. A
 * file beneath a read grant never has {@code truncate}, so each open() there walked to the root: about 1.5 µs per
 * open in the bench view, a quarter of a find + grep (docs/benchmarks.md, "Steady-state cost inside a launch").
 *
 * <p>Why it changes nothing: such a grant is bound read-only, recursively (every host mount beneath it too), on
 * the empty read-only root, and the program can neither remount nor unmount. On a read-only mount the kernel
 * refuses truncate(2), open(O_TRUNC) and creat(2) with EROFS before Landlock is asked, and ftruncate(2) needs a
 * descriptor opened for writing, which a read-only mount never gives. A mount the view adds beneath the grant
 * must then be read-only too, or a write grant's bind (whose rule carries {@code truncate} already); any other
 * (tmpfs, devpts, folder, symlink, a read-write bind) keeps the grant as it was, as do {@code /} and {@code /proc}
 * (a fresh, writable procfs is mounted there).
 */
final class ReadOnlyTruncate {
    private ReadOnlyTruncate() {
    }

    /** The read grants (real paths) that may carry truncate; empty unless the view's root is the empty one. */
    static Set<String> paths(View view, List<Grant> reads, List<Grant> writes) {
        Set<String> out = new LinkedHashSet<>();
        if (view.base() != View.Base.EMPTY) {
            return out;
        }
        Set<String> writeTargets = new LinkedHashSet<>();
        writes.forEach(g -> writeTargets.add(g.real()));
        for (Grant g : reads) {
            String p = g.real();
            if (p.equals("/") || ViewPlanner.under(p, "/proc") || writeTargets.contains(p)) {
                continue;
            }
            int bind = readOnlyBind(view.ops(), p);
            if (bind >= 0 && !hiddenLater(view.ops(), bind, p) && view.ops().stream()
                    .filter(o -> ViewPlanner.under(o.b(), p)).allMatch(o -> readOnlyOrWriteGrant(o, writeTargets))) {
                out.add(p);
            }
        }
        return out;
    }

    /** The index of the read-only bind of {@code p} onto itself, or -1. */
    private static int readOnlyBind(List<View.Op> ops, String p) {
        for (int i = 0; i < ops.size(); i++) {
            View.Op o = ops.get(i);
            if (o.kind() == View.Kind.BIND && o.a().equals(p) && o.b().equals(p) && (o.flags() & View.READ_ONLY) != 0) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A mount made later on a folder above {@code p} hides the read-only bind: the program sees that one there.
     * Folders and symlinks are entries made in the root, not mounts, and hide nothing.
     */
    private static boolean hiddenLater(List<View.Op> ops, int bind, String p) {
        return ops.subList(bind + 1, ops.size()).stream().anyMatch(o -> o.kind() != View.Kind.DIR
                && o.kind() != View.Kind.SYMLINK && !o.b().equals(p) && ViewPlanner.under(p, o.b()));
    }

    private static boolean readOnlyOrWriteGrant(View.Op o, Set<String> writeTargets) {
        if (o.kind() != View.Kind.BIND) {
            return false;
        }
        return (o.flags() & View.READ_ONLY) != 0 || (o.a().equals(o.b()) && writeTargets.contains(o.b()));
    }
}
