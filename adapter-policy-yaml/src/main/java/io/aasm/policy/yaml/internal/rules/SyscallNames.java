package io.aasm.policy.yaml.internal.rules;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The syscall names a policy may use: the x86_64 table, which also contains every name of the generic
 * table aarch64 uses. Whether a backend can filter a name on this host is the backend's question.
 */
public final class SyscallNames {
    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]*");
    private static final Set<String> KNOWN = load();

    private SyscallNames() {
    }

    public static Checked<String> check(String name) {
        if (!NAME.matcher(name).matches()) {
            return Checked.bad("'" + name + "' is not a syscall name",
                    Suggest.didYouMean(name, KNOWN) + "syscall names are lower-case identifiers, e.g. openat");
        }
        if (!KNOWN.contains(name)) {
            return Checked.bad("unknown syscall '" + name + "'",
                    Suggest.didYouMean(name, KNOWN) + "use a Linux x86_64/aarch64 syscall name");
        }
        return Checked.ok(name);
    }

    public static Set<String> known() {
        return KNOWN;
    }

    private static Set<String> load() {
        Set<String> names = new TreeSet<>();
        try (InputStream in = SyscallNames.class.getResourceAsStream("/io/aasm/policy/yaml/internal/syscalls.txt")) {
            if (in == null) {
                throw new IllegalStateException("syscalls.txt missing from the bundle");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = reader.readLine()) != null; ) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    names.add(line.strip());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Set.copyOf(names);
    }
}
