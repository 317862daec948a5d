package io.aasm.backend.sandlock.internal.discovery;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A MAJOR.MINOR.PATCH version as printed by {@code sandlock --version}. */
public record Version(int major, int minor, int patch) implements Comparable<Version> {
    private static final Pattern VERSION_LINE = Pattern.compile("^sandlock (\\d+)\\.(\\d+)\\.(\\d+)\\s*$");
    private static final Pattern PLAIN = Pattern.compile("^(\\d+)\\.(\\d+)\\.(\\d+)$");

    /** Parses the first line of {@code sandlock --version} output (contract §1: {@code sandlock 0.8.6}). */
    public static Optional<Version> fromVersionOutput(String output) {
        String first = output.lines().findFirst().orElse("").strip();
        Matcher m = VERSION_LINE.matcher(first);
        return m.matches() ? Optional.of(of(m)) : Optional.empty();
    }

    public static Version parse(String text) {
        Matcher m = PLAIN.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("not MAJOR.MINOR.PATCH: " + text);
        }
        return of(m);
    }

    private static Version of(Matcher m) {
        return new Version(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
    }

    @Override
    public int compareTo(Version o) {
        int c = Integer.compare(major, o.major);
        if (c == 0) {
            c = Integer.compare(minor, o.minor);
        }
        return c == 0 ? Integer.compare(patch, o.patch) : c;
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }
}
