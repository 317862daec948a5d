package io.aasm.ports.evidence;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The privileges the launched program holds: its five capability sets (as the hexadecimal masks
 * {@code /proc/<pid>/status} shows), {@code no_new_privs}, and its seccomp mode. {@code measured} is
 * true when these values were read from the program itself after its {@code execve}; false when they
 * are what the backend guarantees to install (a pre-launch plan). {@code source} says which, in one
 * sentence. A value a backend could not read is the empty string.
 */
public record ProcessAuthority(boolean measured, String capInheritable, String capPermitted, String capEffective,
                               String capBounding, String capAmbient, boolean noNewPrivs, String seccomp,
                               String source) {
    public ProcessAuthority {
        Objects.requireNonNull(capInheritable);
        Objects.requireNonNull(capPermitted);
        Objects.requireNonNull(capEffective);
        Objects.requireNonNull(capBounding);
        Objects.requireNonNull(capAmbient);
        Objects.requireNonNull(seccomp);
        Objects.requireNonNull(source);
    }

    /** A backend's guarantee before launch: every capability set empty and no_new_privs set. */
    public static ProcessAuthority planned(String seccomp, String source) {
        String none = "0000000000000000";
        return new ProcessAuthority(false, none, none, none, none, none, true, seccomp, source);
    }

    /** No capability in any set, and no_new_privs: nothing the program could use or regain at execve. */
    public boolean clean() {
        return gaps().isEmpty();
    }

    /** Why the authority is not least, one phrase each (empty when it is). */
    public List<String> gaps() {
        List<String> gaps = new ArrayList<>();
        String[][] sets = {{"effective", capEffective}, {"permitted", capPermitted}, {"inheritable", capInheritable},
            {"bounding", capBounding}, {"ambient", capAmbient}};
        for (String[] s : sets) {
            if (!isEmptySet(s[1])) {
                gaps.add(s[1].isEmpty() ? s[0] + " capabilities unknown" : "holds " + s[0] + " capabilities " + s[1]);
            }
        }
        if (!noNewPrivs) {
            gaps.add("no_new_privs not set");
        }
        return gaps;
    }

    private static boolean isEmptySet(String hex) {
        return !hex.isEmpty() && hex.chars().allMatch(c -> c == '0');
    }
}
