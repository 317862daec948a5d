package io.aasm.kernel.internal.lowering;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.util.List;

/**
 * Per-domain facts about the policy schema: the node that states the domain, what an absent node
 * means, and what the schema still cannot say even when the node is present. Kept as constants so
 * every report names the same gaps in the same words.
 */
public enum DomainNodes {
    FILESYSTEM_READ(CapabilityDomain.FILESYSTEM_READ, "filesystem.read.allow",
            "no read requirement: this policy does not restrict reads",
            List.of("no globs or patterns: a grant is a whole subtree",
                    "no per-path verbs: a read grant covers listing, reading and executing alike",
                    "no exceptions inside a granted subtree")),
    FILESYSTEM_WRITE(CapabilityDomain.FILESYSTEM_WRITE, "filesystem.write.allow",
            "no write requirement: this policy does not restrict writes",
            List.of("no globs or file modes: a grant is a whole subtree",
                    "no per-path verbs: a write grant covers create, delete, rename and truncate alike",
                    "no size or quota per path")),
    NETWORK_EGRESS(CapabilityDomain.NETWORK_EGRESS, "network.egress.allow",
            "no egress requirement: this policy does not restrict outbound connections",
            List.of("no ingress or listen rules: binding and accepting are not stated by egress grants",
                    "no per-destination rate or byte limits",
                    "no protocol-level scoping (server name, URL, method)")),
    NAME_RESOLUTION(CapabilityDomain.NAME_RESOLUTION, "network.name_resolution.hosts",
            "no name-resolution requirement: names resolve as the host resolves them",
            List.of("no UDP destination: the resolver address cannot be stated",
                    "name-to-address entries only: no other record types")),
    SYSCALL(CapabilityDomain.SYSCALL, "syscalls",
            "no syscall requirement: every system call the host allows stays available",
            List.of("no argument filtering: a call is allowed or denied as a whole",
                    "no errno or kill semantics: what a denied call returns is backend-defined",
                    "names only: no per-architecture numbers")),
    PROCESS_CREATION(CapabilityDomain.PROCESS_CREATION, "process",
            "no process requirement: the program may create processes without a ceiling",
            List.of("no per-program exec allow list",
                    "threads and processes count against the same ceiling")),
    IPC(CapabilityDomain.IPC, "ipc.allow",
            "no IPC requirement: channels beyond the launched tree stay reachable",
            List.of("no per-peer or per-socket-path scoping",
                    "coarse channels only: abstract_unix, signal, sysv")),
    CREDENTIAL(CapabilityDomain.CREDENTIAL, "credentials.delegate",
            "environment starts empty; nothing delegated",
            List.of("names only: values cannot be rewritten or narrowed",
                    "file-based credentials (for example under the home directory) are not covered by this domain")),
    RESOURCE(CapabilityDomain.RESOURCE, "resources",
            "no resource requirement: no ceiling beyond the host's own limits",
            List.of("no I/O or network bandwidth ceilings",
                    "ceilings apply to the launched tree as a whole, not per process"));

    private final CapabilityDomain domain;
    private final String node;
    private final String schemaDefault;
    private final List<String> residualGaps;

    DomainNodes(CapabilityDomain domain, String node, String schemaDefault, List<String> residualGaps) {
        this.domain = domain;
        this.node = node;
        this.schemaDefault = schemaDefault;
        this.residualGaps = residualGaps;
    }

    public static DomainNodes of(CapabilityDomain domain) {
        return values()[domain.ordinal()];
    }

    public CapabilityDomain domain() {
        return domain;
    }

    public String node() {
        return node;
    }

    /** The exact node a statement used (syscalls and process have two spellings). */
    public String nodeFor(Scope scope) {
        if (scope instanceof Scope.Syscalls s) {
            return s.mode() == SyscallMode.ALLOW ? "syscalls.allow" : "syscalls.deny";
        }
        if (domain == CapabilityDomain.SYSCALL) {
            return "syscalls.allow";
        }
        if (domain == CapabilityDomain.PROCESS_CREATION) {
            return scope instanceof Scope.ProcessCeiling ? "process.max" : "process.spawn";
        }
        return node;
    }

    public String schemaDefault() {
        return schemaDefault;
    }

    public List<String> residualGaps() {
        return residualGaps;
    }
}
