package io.aasm.policy.yaml.internal.sections;

import io.aasm.policy.yaml.internal.rules.Suggest;
import io.aasm.policy.yaml.internal.tree.YNode;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.IpcChannel;
import io.aasm.ports.policy.Scope;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;

/** {@code ipc.allow}: channels that may reach beyond the confined tree; an empty list grants none. */
public final class IpcSection {
    private static final List<String> CHANNELS = Arrays.stream(IpcChannel.values()).map(IpcChannel::token).toList();

    private IpcSection() {
    }

    public static void read(YNode.Entry section, Statements out) {
        Fields.of(section.value(), "ipc", out.problems(), "ipc: {allow: [signal]}").ifPresent(f -> {
            f.allowOnly(Statements.withHeader("allow"));
            Header header = Header.read(f);
            var allow = f.entry("allow");
            if (allow.isEmpty()) {
                out.problems().at(section, "ipc has no allow list",
                        "write allow: [" + String.join(", ", CHANNELS) + "] or a subset; allow: [] grants no channel");
                return;
            }
            f.list(allow.get(), "[signal]").ifPresent(items -> {
                EnumSet<IpcChannel> channels = EnumSet.noneOf(IpcChannel.class);
                for (YNode.Scalar s : f.strings(allow.get(), items, "signal")) {
                    Arrays.stream(IpcChannel.values()).filter(c -> c.token().equals(s.text())).findFirst()
                            .ifPresentOrElse(channels::add, () -> out.problems().at(s,
                                    "unknown ipc channel '" + s.text() + "' at ipc.allow[" + items.indexOf(s) + "]",
                                    Suggest.didYouMean(s.text(), CHANNELS) + "channels: "
                                            + String.join(", ", CHANNELS)));
                }
                Scope scope = items.isEmpty() ? new Scope.WholeDomain() : new Scope.IpcGrants(channels);
                out.put(CapabilityDomain.IPC, scope, header, section);
            });
        });
    }
}
