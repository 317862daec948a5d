package io.aasm.policy.yaml.internal.sections;

import io.aasm.policy.yaml.internal.rules.SyscallNames;
import io.aasm.policy.yaml.internal.tree.YNode;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.util.List;
import java.util.TreeSet;

/**
 * {@code syscalls}: exactly one of {@code allow} (a grant list: empty denies every syscall) or
 * {@code deny} (not a grant list: empty would state nothing, so it is an error).
 */
public final class SyscallSection {
    private SyscallSection() {
    }

    public static void read(YNode.Entry section, Statements out) {
        Fields.of(section.value(), "syscalls", out.problems(), "syscalls: {deny: [ptrace, mount]}").ifPresent(f -> {
            f.allowOnly(Statements.withHeader("allow", "deny"));
            Header header = Header.read(f);
            var allow = f.entry("allow");
            var deny = f.entry("deny");
            if (allow.isPresent() && deny.isPresent()) {
                out.problems().at(deny.get(), "syscalls states both allow and deny",
                        "keep one list: allow names what may run, deny names what may not");
                return;
            }
            if (allow.isEmpty() && deny.isEmpty()) {
                out.problems().at(section, "syscalls states neither allow nor deny",
                        "write deny: [ptrace, mount] or allow: [read, write, ...], or remove syscalls");
                return;
            }
            YNode.Entry list = allow.orElseGet(deny::get);
            SyscallMode mode = allow.isPresent() ? SyscallMode.ALLOW : SyscallMode.DENY;
            f.list(list, "[ptrace, mount]").ifPresent(items -> {
                if (items.isEmpty() && mode == SyscallMode.DENY) {
                    out.problems().at(list, "syscalls.deny is empty",
                            "a deny list is not a grant list: name the syscalls to deny, use allow: [] to deny all,"
                                    + " or remove syscalls");
                    return;
                }
                TreeSet<String> names = new TreeSet<>();
                List<YNode.Scalar> strings = f.strings(list, items, "openat");
                for (YNode.Scalar s : strings) {
                    String where = "syscalls." + list.key() + "[" + items.indexOf(s) + "]";
                    SyscallNames.check(s.text()).then(names::add,
                            (message, hint) -> out.problems().at(s, where + ": " + message, hint));
                }
                Scope scope = items.isEmpty() ? new Scope.WholeDomain() : new Scope.Syscalls(mode, List.copyOf(names));
                out.put(CapabilityDomain.SYSCALL, scope, header, section);
            });
        });
    }
}
