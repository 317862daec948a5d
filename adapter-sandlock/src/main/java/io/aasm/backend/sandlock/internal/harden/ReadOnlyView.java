package io.aasm.backend.sandlock.internal.harden;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * The guard's read-only view for a launch that states filesystem writes: sandlock's process gets a mount
 * namespace of its own where every mount is read-only but the write grants and sandlock's own state folder,
 * so a metadata change (mode, owner, times, extended attributes, inode flags) outside the write grants fails
 * with EROFS — Landlock has no right for metadata. Making the namespace needs CAP_SYS_ADMIN there: root
 * has it, an unprivileged caller has it only inside the user namespace of the capability drop, so without
 * the drop there is no view.
 */
public final class ReadOnlyView {
    private ReadOnlyView() {
    }

    /**
     * The guard's options ({@code view:read-only}, then {@code rw:<path>} each), or empty when this launch
     * gets no view: writes are not stated, or there is no capability drop to make it in.
     *
     * @param writeGrants the real paths of the installed write grants ({@code --fs-write} values)
     * @param stateRoot   sandlock's per-user state folder, which sandlock itself writes during the launch
     */
    public static Optional<List<String>> options(boolean writesStated, List<String> writeGrants, Path stateRoot,
                                                 Optional<AuthorityDrop> drop) {
        if (!writesStated || drop.isEmpty()) {
            return Optional.empty();
        }
        LinkedHashSet<String> rw = new LinkedHashSet<>();
        // a device is written through on a read-only mount as on any other: /dev/null needs no bind
        writeGrants.stream().filter(p -> !p.equals("/dev/null")).forEach(rw::add);
        rw.add(stateRoot.toString());
        List<String> out = new ArrayList<>(List.of("view:read-only"));
        rw.forEach(p -> out.add("rw:" + p));
        return Optional.of(out);
    }

    /** The setup evidence sentence for a view with {@code options}. */
    public static String describe(List<String> options) {
        return "every mount read-only in sandlock's own mount namespace but the " + (options.size() - 2)
                + " write grant(s) and sandlock's state folder: metadata changes (mode, owner, times, extended"
                + " attributes) outside the write grants fail with EROFS; content stays Landlock's";
    }
}
