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
        int hidden = hiddenCharacterAt(raw);
        if (hidden >= 0) {
            // A bidi override or zero-width mark makes the path display as another path: in a review of the
            // policy, and in every message that repeats it. Name the code point, never echo the character.
            return Checked.bad(String.format("path contains the invisible or direction-changing character U+%04X "
                    + "at character %d", raw.codePointAt(hidden), raw.codePointCount(0, hidden) + 1),
                    "remove it; a grant path must display as what it is");
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

    /** The index of the first C1 control, format (bidi, zero-width, tag) or line/paragraph separator character, else -1. */
    private static int hiddenCharacterAt(String raw) {
        for (int i = 0; i < raw.length(); ) {
            int cp = raw.codePointAt(i);
            int type = Character.getType(cp);
            if (Character.isISOControl(cp) || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR) {
                return i;
            }
            i += Character.charCount(cp);
        }
        return -1;
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

    /**
     * Sorted, duplicates and entries inside another entry's subtree removed. Linear in the number of
     * paths times their depth: each path looks up its own ancestors, never every kept entry.
     */
    public static List<String> collapse(Collection<String> paths) {
        List<String> kept = new ArrayList<>();
        java.util.Set<String> keptSet = new java.util.HashSet<>();
        for (String p : new TreeSet<>(paths)) {
            if (!keptSet.contains("/") && !keptSet.contains(p) && !ancestorIn(p, keptSet)) {
                kept.add(p);
                keptSet.add(p);
            }
        }
        return kept;
    }

    private static boolean ancestorIn(String path, java.util.Set<String> set) {
        for (int i = path.indexOf('/', 1); i > 0; i = path.indexOf('/', i + 1)) {
            if (set.contains(path.substring(0, i))) {
                return true;
            }
        }
        return false;
    }
}
