package io.aasm.policy.yaml.internal.rules;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * Filesystem grant paths: absolute, without '..', normalised. A grant covers a whole subtree by
 * components, so '/a' already covers '/a/b' and the narrower entry is redundant.
 */
public final class PathRules {
    static final int PATH_MAX = 4096;
    static final String WORKDIR = io.aasm.ports.policy.Scope.Paths.WORKING_DIRECTORY;

    private PathRules() {
    }

    public static Checked<String> normalise(String raw) {
        if (raw.isEmpty()) {
            return Checked.bad("empty path", "write an absolute path such as /usr");
        }
        if (raw.indexOf('\0') >= 0) {
            return Checked.bad("path contains a NUL character", "remove the NUL character");
        }
        if (raw.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            return Checked.bad("path contains a control character", "remove control characters such as newlines");
        }
        String prefix = "";
        if (raw.equals(WORKDIR) || raw.startsWith(WORKDIR + "/")) {
            prefix = WORKDIR; // the launch's working directory: the kernel puts the real path in its place
            raw = raw.substring(WORKDIR.length()).isEmpty() ? "/" : raw.substring(WORKDIR.length());
        } else if (!raw.startsWith("/")) {
            return Checked.bad("relative path '" + raw + "'", relativeHint(raw));
        }
        if (raw.indexOf('*') >= 0) {
            return Checked.bad("path '" + raw + "' contains '*': globs are not supported",
                    "grant the directory; a grant covers its whole subtree");
        }
        StringBuilder out = new StringBuilder();
        for (String part : raw.split("/")) {
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            if (part.equals("..")) {
                return Checked.bad("path '" + raw + "' contains a '..' component",
                        "write the path without '..'; grants are not resolved through parents");
            }
            out.append('/').append(part);
        }
        String path = !prefix.isEmpty() ? prefix + out : out.isEmpty() ? "/" : out.toString();
        if (path.length() > PATH_MAX) {
            return Checked.bad("path is longer than " + PATH_MAX + " characters", "shorten the path");
        }
        return Checked.ok(path);
    }

    private static String relativeHint(String raw) {
        if (raw.startsWith("~")) {
            return "'~' is not expanded; write the absolute path, e.g. /home/user/...";
        }
        if (raw.startsWith("$")) {
            return "environment variables are not expanded (only " + WORKDIR + ", the launch's working directory, "
                    + "is); write the absolute path";
        }
        return "paths must be absolute (start with '/'), e.g. /" + raw.replaceFirst("^\\./", "");
    }

    /** Sorted, duplicates and entries inside another entry's subtree removed. */
    public static List<String> collapse(Collection<String> paths) {
        List<String> kept = new ArrayList<>();
        for (String p : new TreeSet<>(paths)) {
            boolean covered = kept.stream().anyMatch(k -> k.equals("/") || p.equals(k) || p.startsWith(k + "/"));
            if (!covered) {
                kept.add(p);
            }
        }
        return kept;
    }
}
