package io.aasm.backend.container.internal.engine;

/** An Engine API version, {@code major.minor}, compared numerically (1.9 is older than 1.41). */
public record ApiVersion(int major, int minor) implements Comparable<ApiVersion> {
    public static ApiVersion parse(String text) {
        String[] p = text.strip().split("\\.");
        if (p.length != 2 || !p[0].matches("\\d{1,3}") || !p[1].matches("\\d{1,3}")) {
            throw new IllegalArgumentException("not an Engine API version: " + text);
        }
        return new ApiVersion(Integer.parseInt(p[0]), Integer.parseInt(p[1]));
    }

    @Override
    public int compareTo(ApiVersion o) {
        return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
