package io.aasm.policy.yaml.internal.sections;

import io.aasm.policy.yaml.internal.rules.PathRules;
import io.aasm.policy.yaml.internal.tree.YNode;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.Scope;
import java.util.ArrayList;
import java.util.List;

/** {@code filesystem.read} and {@code filesystem.write}: path subtrees; an empty allow list denies all. */
public final class FilesystemSection {
    private FilesystemSection() {
    }

    public static void read(YNode.Entry section, Statements out) {
        Fields.of(section.value(), "filesystem", out.problems(), "filesystem: {read: {allow: [/usr]}}").ifPresent(f -> {
            f.allowOnly(List.of("read", "write"));
            if (f.isEmpty()) {
                out.problems().at(section, "filesystem states neither read nor write",
                        "add read: {allow: [...]} and/or write: {allow: [...]}, or remove filesystem");
            }
            f.entry("read").ifPresent(e -> access(e, "filesystem.read", CapabilityDomain.FILESYSTEM_READ, out));
            f.entry("write").ifPresent(e -> access(e, "filesystem.write", CapabilityDomain.FILESYSTEM_WRITE, out));
        });
    }

    /** {@code private: [/tmp]}: fresh, empty folders of the launch's own; absolute paths only. */
    private static List<String> privateDirs(Fields f, String path, Statements out) {
        List<String> dirs = new ArrayList<>();
        f.entry("private").flatMap(e -> f.list(e, "[/tmp]")).ifPresent(items -> {
            for (int i = 0; i < items.size(); i++) {
                f.asString(items.get(i), path + ".private[" + i + "]", "/tmp").ifPresent(s -> {
                    if (s.text().startsWith("$")) {
                        out.problems().at(s, "a private folder cannot be " + s.text(),
                                "private folders are absolute paths such as /tmp");
                        return;
                    }
                    PathRules.normalise(s.text()).then(dirs::add, (message, hint) -> out.problems().at(s, message, hint));
                });
            }
        });
        return PathRules.collapse(dirs);
    }

    private static void access(YNode.Entry section, String path, CapabilityDomain domain, Statements out) {
        Fields.of(section.value(), path, out.problems(), section.key() + ": {allow: [/usr]}").ifPresent(f -> {
            boolean writes = domain == CapabilityDomain.FILESYSTEM_WRITE;
            f.allowOnly(writes ? Statements.withHeader("allow", "private") : Statements.withHeader("allow"));
            Header header = Header.read(f);
            var allow = f.entry("allow");
            if (allow.isEmpty()) {
                out.problems().at(section, path + " has no allow list",
                        "write allow: [/some/path]; allow: [] denies the whole domain");
                return;
            }
            f.list(allow.get(), "[/usr, /etc/ssl]").ifPresent(items -> {
                List<String> paths = new ArrayList<>();
                for (int i = 0; i < items.size(); i++) {
                    YNode item = items.get(i);
                    f.asString(item, path + ".allow[" + i + "]", "/usr").ifPresent(s -> {
                        PathRules.normalise(s.text()).then(paths::add,
                                (message, hint) -> out.problems().at(s, message, hint));
                    });
                }
                List<String> privateDirs = writes ? privateDirs(f, path, out) : List.of();
                // Bad items were reported; any problem rejects the whole policy, so the scope is moot then.
                Scope scope = items.isEmpty() && privateDirs.isEmpty() ? new Scope.WholeDomain()
                        : new Scope.Paths(PathRules.collapse(paths), privateDirs);
                out.put(domain, scope, header, section);
            });
        });
    }
}
