package io.aasm.backend.vm.internal.lower;

import io.aasm.backend.vm.internal.guest.GuestPlan;
import io.aasm.backend.vm.internal.guest.ViewOp;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The filesystem domains as shares: each granted host folder is one share slot (QEMU 9p, read-only enforced
 * by QEMU itself when the grant is for reading), mounted by the agent outside the view and bound into it at
 * its own path; the view's root is an empty read-only tmpfs, so nothing else of the host exists for the
 * program. Landlock in the guest repeats every grant underneath. The guest's own /proc, /sys and device
 * set stand in for the host's (a 9p share of the host's procfs would show the host's processes).
 */
final class ShareLayout {
    /** A share slot: the host folder and whether QEMU refuses writes to it. */
    record Slot(int slot, String hostPath, boolean readOnly) {
    }

    record Layout(List<Slot> slots, List<ViewOp> view, List<GuestPlan.LandlockRule> rules, boolean landlock,
                  List<String> readSteps, List<String> writeSteps) {
    }

    /** Why the layout cannot be made, and which domain says so. */
    record Refusal(boolean writeDomain, String detail) {
    }

    static final String DEVICE_NOTE = "/dev holds only the standard device set (null, zero, full, random, urandom, tty,"
            + " a private devpts and /dev/shm)";

    private final List<ViewOp> ops = new ArrayList<>();
    private final List<GuestPlan.LandlockRule> rules = new ArrayList<>();
    private final List<String> readSteps = new ArrayList<>();
    private final List<String> writeSteps = new ArrayList<>();
    private final Map<String, Slot> slotByHost = new LinkedHashMap<>();

    private ShareLayout() {
    }

    /**
     * {@code reads}/{@code writes}: the granted paths, empty when the domain is not stated (a stated domain
     * with nothing granted is an empty list). {@code protectedPaths}: aasm's own state, never writable.
     */
    static Object layout(Optional<List<String>> reads, Optional<List<String>> writes, List<String> privateDirs,
                         List<String> protectedPaths, int maxSlots) {
        ShareLayout l = new ShareLayout();
        boolean landlock = reads.isPresent() || writes.isPresent();
        List<FsEntry> entries = new ArrayList<>();
        if (reads.isEmpty() && writes.isEmpty()) {
            entries.addAll(l.entries("/", true));
        } else {
            if (reads.isEmpty()) {
                entries.addAll(l.entries("/", false));
            }
            for (String p : reads.orElse(List.of())) {
                entries.addAll(l.entries(p, writes.isEmpty()));
            }
            for (String p : writes.orElse(List.of())) {
                entries.addAll(l.entries(p, true));
            }
        }
        Set<String> readOnly = new HashSet<>();
        for (String x : protectedPaths) {
            Optional<HostPaths.Resolved> r = HostPaths.resolve(x);
            for (String w : writes.orElse(List.of())) {
                Optional<HostPaths.Resolved> rw = HostPaths.resolve(w);
                if (r.isPresent() && rw.isPresent() && HostPaths.under(rw.get().real(), r.get().real())) {
                    return new Refusal(true, "the write grant " + w + " lies inside aasm's own state " + x
                            + ", which no launch may write");
                }
            }
            // any write grant around it, even with a read grant of the state itself in between (grants add up)
            if (r.isPresent() && r.get().directory() && entries.stream().anyMatch(e -> e.write()
                    && e.kind() == FsEntry.Kind.FOLDER && HostPaths.under(r.get().real(), e.path()))) {
                entries.add(new FsEntry(r.get().real(), false, FsEntry.Kind.FOLDER)); // read-only over the share
                readOnly.add(r.get().real());
            }
        }
        List<FsEntry> kept = reduce(entries, readOnly);
        // a symlink inside a shared folder is already there, as the host has it
        l.ops.removeIf(o -> kept.stream().anyMatch(k -> k.kind() == FsEntry.Kind.FOLDER && !k.path().equals(o.target())
                && HostPaths.under(o.target(), k.path())));
        Optional<Refusal> bad = l.place(kept, maxSlots);
        if (bad.isPresent()) {
            return bad.get();
        }
        for (String d : privateDirs) {
            l.ops.add(new ViewOp.Tmpfs(d));
            l.rules.add(new GuestPlan.LandlockRule(GuestPlan.Access.WRITE, d));
            l.writeSteps.add("private folder " + d + ": a fresh tmpfs in the guest, gone with the VM");
        }
        l.devices();
        l.ops.sort(Comparator.comparingInt((ViewOp o) -> HostPaths.depth(o.target())).thenComparingInt(ShareLayout::rank));
        if (!landlock) {
            l.rules.clear();
        }
        return new Layout(List.copyOf(l.slotByHost.values()), List.copyOf(l.ops), List.copyOf(l.rules), landlock,
                List.copyOf(l.readSteps), List.copyOf(l.writeSteps));
    }

    /** Pseudo filesystems become the guest's own; a host path is resolved, its symlinks kept for the view. */
    private List<FsEntry> entries(String path, boolean write) {
        String p = Path.of(path).normalize().toString();
        List<FsEntry> out = new ArrayList<>();
        if (HostPaths.under(p, "/proc") && !p.equals("/")) {
            return List.of(new FsEntry("/proc", write, FsEntry.Kind.PROC));
        }
        if (HostPaths.under(p, "/sys") && !p.equals("/")) {
            return List.of(new FsEntry("/sys", false, FsEntry.Kind.SYSFS));
        }
        if (HostPaths.under(p, "/dev") && !p.equals("/")) {
            return List.of(); // the standard device set is always there; nothing else of /dev exists in the guest
        }
        if (p.equals("/")) {
            out.add(new FsEntry("/proc", write, FsEntry.Kind.PROC));
            out.add(new FsEntry("/sys", false, FsEntry.Kind.SYSFS));
        }
        Optional<HostPaths.Resolved> r = HostPaths.resolve(p);
        if (r.isEmpty()) {
            (write ? writeSteps : readSteps).add(p + " does not exist on the host: nothing to share");
            return out;
        }
        for (HostPaths.Link link : r.get().links()) {
            ops.add(new ViewOp.Symlink(link.path(), link.content()));
        }
        out.add(new FsEntry(r.get().real(), write, r.get().directory() ? FsEntry.Kind.FOLDER : FsEntry.Kind.FILE));
        return out;
    }

    /**
     * Drops what a wider entry already gives. A write grant inside a read grant widens (its own read-write share);
     * a read grant inside a write grant gives nothing more and stays writable, as under every other backend
     * (grants add up), except {@code readOnly}: aasm's own state, which is read-only over any write grant. (The
     * kernel drops a write grant nested in another, so a read-and-write folder inside a written workspace arrives
     * as a read grant only: narrowing it made it read-only and a second mount, where hard links fail.)
     */
    static List<FsEntry> reduce(List<FsEntry> entries, Set<String> readOnly) {
        List<FsEntry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparingInt((FsEntry e) -> HostPaths.depth(e.path())).thenComparing(e -> !e.write()));
        List<FsEntry> kept = new ArrayList<>();
        for (FsEntry e : sorted) {
            FsEntry nearest = null;
            for (FsEntry k : kept) {
                if (family(k) == family(e) && HostPaths.under(e.path(), k.path())
                        && (nearest == null || k.path().length() > nearest.path().length())) {
                    nearest = k;
                }
            }
            boolean narrows = nearest != null && nearest.write() && !e.write();
            if (nearest == null || (nearest.write() != e.write() && !e.path().equals(nearest.path())
                    && (!narrows || readOnly.contains(e.path())))) {
                kept.add(e);
            } else if (nearest.path().equals(e.path()) && e.write() && !nearest.write()) {
                kept.set(kept.indexOf(nearest), e); // the same path granted for writing too
            }
        }
        return kept;
    }

    private static int family(FsEntry e) {
        return e.kind() == FsEntry.Kind.FILE ? FsEntry.Kind.FOLDER.ordinal() : e.kind().ordinal();
    }

    private Optional<Refusal> place(List<FsEntry> entries, int maxSlots) {
        for (FsEntry e : entries) {
            switch (e.kind()) {
                case PROC -> {
                    ops.add(new ViewOp.Proc("/proc"));
                    rules.add(new GuestPlan.LandlockRule(GuestPlan.Access.READ, "/proc"));
                    readSteps.add("/proc: the guest's own procfs (only the guest's processes exist in it)");
                }
                case SYSFS -> {
                    ops.add(new ViewOp.Sysfs("/sys"));
                    rules.add(new GuestPlan.LandlockRule(GuestPlan.Access.READ, "/sys"));
                    readSteps.add("/sys: the guest's own sysfs, read-only");
                }
                case FOLDER -> {
                    Slot s = slot(e.path(), !e.write());
                    ops.add(new ViewOp.Bind(s.slot(), !e.write(), "", e.path()));
                    rules.add(new GuestPlan.LandlockRule(e.write() ? GuestPlan.Access.WRITE : GuestPlan.Access.READ,
                            e.path()));
                    step(e, "share " + s.slot() + " of " + e.path() + (e.write() ? ", read-write" : ", read-only "
                            + "(enforced by the host's 9p server)") + ", bound at " + e.path());
                }
                case FILE -> {
                    if (e.write()) {
                        return Optional.of(new Refusal(true, "a write grant of a single file (" + e.path() + ") cannot"
                                + " be shared into the guest; grant its folder"));
                    }
                    String parent = Path.of(e.path()).getParent().toString();
                    Slot s = slot(parent, true);
                    ops.add(new ViewOp.Bind(s.slot(), true, Path.of(e.path()).getFileName().toString(), e.path()));
                    rules.add(new GuestPlan.LandlockRule(GuestPlan.Access.READ, e.path()));
                    readSteps.add("share " + s.slot() + " of " + parent + ", read-only; only " + e.path()
                            + " is bound into the view");
                }
            }
            if (slotByHost.size() > maxSlots) {
                return Optional.of(new Refusal(e.write(), "the grants need more than the VM's " + maxSlots
                        + " share slots (each granted folder is one); grant fewer, wider folders or raise slots"));
            }
        }
        return Optional.empty();
    }

    private Slot slot(String hostPath, boolean readOnly) {
        Slot s = slotByHost.get(hostPath);
        if (s == null || (s.readOnly() && !readOnly)) {
            s = new Slot(s == null ? slotByHost.size() : s.slot(), hostPath, readOnly);
            slotByHost.put(hostPath, s);
        }
        return s;
    }

    private void step(FsEntry e, String text) {
        (e.write() ? writeSteps : readSteps).add(text);
    }

    private void devices() {
        for (String d : List.of("null", "zero", "full", "random", "urandom", "tty")) {
            rules.add(new GuestPlan.LandlockRule(GuestPlan.Access.DEVICE, "/dev/" + d));
        }
        rules.add(new GuestPlan.LandlockRule(GuestPlan.Access.WRITE, "/dev/pts"));
        rules.add(new GuestPlan.LandlockRule(GuestPlan.Access.WRITE, "/dev/shm"));
    }

    /** At one depth: symlinks and binds first, then what is mounted over them (tmpfs, pseudo filesystems). */
    private static int rank(ViewOp o) {
        return o instanceof ViewOp.Symlink ? 0 : o instanceof ViewOp.Bind ? 1 : o instanceof ViewOp.File ? 3 : 2;
    }
}
