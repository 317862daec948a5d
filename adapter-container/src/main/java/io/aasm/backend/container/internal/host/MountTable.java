package io.aasm.backend.container.internal.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The host's mount points ({@code /proc/self/mountinfo}). A read-only bind of a folder that holds other
 * mounts makes only its top mount read-only (the engine binds recursively, and this engine version cannot
 * make a recursive bind read-only as a whole), so every mount beneath a read-only bind is bound read-only
 * again at its own path.
 */
public final class MountTable {
    private MountTable() {
    }

    /**
     * Mount points, except namespace files ({@code nsfs}: the engine's network namespace handles are not
     * folders to read, and binding one again is refused by the runtime).
     */
    public static List<String> mountPoints(Path mountinfo) {
        List<String> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(mountinfo)) {
                String[] f = line.split(" ");
                int dash = java.util.Arrays.asList(f).indexOf("-");
                String type = dash > 0 && dash + 1 < f.length ? f[dash + 1] : "";
                if (f.length > 4 && !type.equals("nsfs")) {
                    out.add(unescape(f[4]));
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        return out;
    }

    /** mountinfo escapes space, tab, newline and backslash as three octal digits. */
    static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && s.substring(i + 1, Math.min(i + 4, s.length())).matches("[0-7]{3}")) {
                b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
