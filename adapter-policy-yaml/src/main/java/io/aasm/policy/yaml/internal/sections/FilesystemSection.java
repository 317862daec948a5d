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

    private static void access(YNode.Entry section, String path, CapabilityDomain domain, Statements out) {
        Fields.of(section.value(), path, out.problems(), section.key() + ": {allow: [/usr]}").ifPresent(f -> {
            f.allowOnly(Statements.withHeader("allow"));
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
                // Bad items were reported; any problem rejects the whole policy, so the scope is moot then.
                Scope scope = items.isEmpty() ? new Scope.WholeDomain() : new Scope.Paths(PathRules.collapse(paths));
                out.put(domain, scope, header, section);
            });
        });
    }
}
