package io.aasm.ports.policy;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a requirement covers, typed per domain. {@link WholeDomain} denies the whole domain (the
 * meaning of a present-but-empty grant list); the other scopes are grants, and everything not
 * granted is denied.
 */
public sealed interface Scope {
    /** Wire token of the scope shape. */
    String token();

    /** Nothing in the domain is granted. */
    record WholeDomain() implements Scope {
        @Override
        public String token() {
            return "whole_domain";
        }
    }

    /**
     * Filesystem grants: absolute, normalised paths; each grants its whole subtree (component-aware). A path
     * may start with {@link #WORKING_DIRECTORY} ({@code $WORKDIR}, optionally followed by {@code /more}): the
     * kernel replaces it with the launch's working directory before any backend sees the scope.
     * {@code privateDirs} (write grants only) are folders that exist for the program fresh, empty and
     * writable, private to this launch and discarded at its end (e.g. {@code /tmp}).
     */
    record Paths(List<String> paths, List<String> privateDirs) implements Scope {
        /** The launch's working directory, as a policy writes it. */
        public static final String WORKING_DIRECTORY = "$WORKDIR";

        public Paths {
            paths = List.copyOf(paths);
            privateDirs = List.copyOf(privateDirs);
            for (String p : paths) {
                if (!p.startsWith("/") && !relativeToWorkingDirectory(p)) {
                    throw new IllegalArgumentException("path grant must be absolute: " + p);
                }
            }
            for (String p : privateDirs) {
                if (!p.startsWith("/")) {
                    throw new IllegalArgumentException("private folder must be absolute: " + p);
                }
            }
        }

        public Paths(List<String> paths) {
            this(paths, List.of());
        }

        /** {@code $WORKDIR} or {@code $WORKDIR/...}. */
        public static boolean relativeToWorkingDirectory(String p) {
            return p.equals(WORKING_DIRECTORY) || p.startsWith(WORKING_DIRECTORY + "/");
        }

        @Override
        public String token() {
            return "paths";
        }
    }

    /** Network egress grants; {@code loopback} is a host meaning every loopback address. */
    record Egress(List<EgressGrant> grants) implements Scope {
        public Egress {
            grants = List.copyOf(grants);
        }

        @Override
        public String token() {
            return "egress";
        }
    }

    /** Name resolution pinned to a fixed host table (name to address); nothing else resolves. */
    record PinnedHosts(SortedMap<String, String> hosts) implements Scope {
        public PinnedHosts {
            hosts = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(hosts));
        }

        @Override
        public String token() {
            return "pinned_hosts";
        }
    }

    /** Syscalls by name: an allow list (everything else denied) or a deny list. */
    record Syscalls(SyscallMode mode, List<String> names) implements Scope {
        public Syscalls {
            Objects.requireNonNull(mode, "mode");
            names = List.copyOf(names);
        }

        @Override
        public String token() {
            return "syscalls";
        }
    }

    /** A ceiling on the number of processes (and threads) in the confined tree. */
    record ProcessCeiling(int maxProcesses) implements Scope {
        public ProcessCeiling {
            if (maxProcesses < 1) {
                throw new IllegalArgumentException("maxProcesses must be at least 1");
            }
        }

        @Override
        public String token() {
            return "process_ceiling";
        }
    }

    /** IPC channels that may reach beyond the confined tree; all others are scoped to it. */
    record IpcGrants(Set<IpcChannel> channels) implements Scope {
        public IpcGrants {
            channels = Set.copyOf(channels);
        }

        @Override
        public String token() {
            return "ipc_grants";
        }
    }

    /** Environment names delegated to the program; every other name is removed. */
    record Delegated(List<String> environmentNames) implements Scope {
        public Delegated {
            environmentNames = List.copyOf(environmentNames);
        }

        @Override
        public String token() {
            return "delegated";
        }
    }

    /** Resource ceilings; an empty value states no ceiling for that resource. */
    record Limits(OptionalLong maxMemoryBytes, OptionalLong maxCpuSeconds, OptionalLong maxWallClockSeconds,
                  OptionalLong maxOpenFiles, OptionalLong maxFileSizeBytes, OptionalLong maxProcesses)
            implements Scope {
        public Limits {
            Objects.requireNonNull(maxMemoryBytes);
            Objects.requireNonNull(maxCpuSeconds);
            Objects.requireNonNull(maxWallClockSeconds);
            Objects.requireNonNull(maxOpenFiles);
            Objects.requireNonNull(maxFileSizeBytes);
            Objects.requireNonNull(maxProcesses);
        }

        /** Stated ceilings by wire name, in a fixed order. */
        public Map<String, Long> stated() {
            Map<String, Long> out = new java.util.LinkedHashMap<>();
            maxMemoryBytes.ifPresent(v -> out.put("max_memory_bytes", v));
            maxCpuSeconds.ifPresent(v -> out.put("max_cpu_seconds", v));
            maxWallClockSeconds.ifPresent(v -> out.put("max_wall_clock_seconds", v));
            maxOpenFiles.ifPresent(v -> out.put("max_open_files", v));
            maxFileSizeBytes.ifPresent(v -> out.put("max_file_size_bytes", v));
            maxProcesses.ifPresent(v -> out.put("max_processes", v));
            return out;
        }

        @Override
        public String token() {
            return "limits";
        }
    }
}
