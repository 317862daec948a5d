package io.aasm.policy.yaml.internal.sections;

import io.aasm.policy.yaml.internal.tree.YNode;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.Scope;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;

/** {@code credentials.delegate}: environment names copied to the program; an empty list delegates none. */
public final class CredentialSection {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private CredentialSection() {
    }

    public static void read(YNode.Entry section, Statements out) {
        String example = "credentials: {delegate: [PATH, HOME]}";
        Fields.of(section.value(), "credentials", out.problems(), example).ifPresent(f -> {
            f.allowOnly(Statements.withHeader("delegate"));
            Header header = Header.read(f);
            var delegate = f.entry("delegate");
            if (delegate.isEmpty()) {
                out.problems().at(section, "credentials has no delegate list",
                        "write delegate: [PATH, HOME]; delegate: [] starts the program with an empty environment");
                return;
            }
            f.list(delegate.get(), "[PATH, HOME]").ifPresent(items -> {
                TreeSet<String> names = new TreeSet<>();
                for (YNode.Scalar s : f.strings(delegate.get(), items, "PATH")) {
                    if (NAME.matcher(s.text()).matches()) {
                        names.add(s.text());
                    } else {
                        out.problems().at(s, "'" + s.text() + "' at credentials.delegate[" + items.indexOf(s)
                                + "] is not an environment variable name", nameHint(s.text()));
                    }
                }
                Scope scope = items.isEmpty() ? new Scope.WholeDomain() : new Scope.Delegated(List.copyOf(names));
                out.put(CapabilityDomain.CREDENTIAL, scope, header, section);
            });
        });
    }

    private static String nameHint(String text) {
        if (text.contains("=")) {
            return "name the variable only; values are taken from the caller's environment, never from policy";
        }
        return "names match [A-Za-z_][A-Za-z0-9_]*, e.g. HOME";
    }
}
