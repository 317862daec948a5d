package io.aasm.backend.sandlock.internal.probe;

import io.aasm.ports.capability.PrerequisiteStatus;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** The outcome of each controlled pair, by probe name, and when they ran. */
public record ProbeResults(Map<String, PrerequisiteStatus> outcomes, Instant measuredAt) {
    public static final String FS_READ = "fs_read";
    public static final String FS_WRITE = "fs_write";
    public static final String EGRESS = "egress_tcp_loopback";
    public static final String SYSCALL = "syscall_deny";
    public static final String PROCESS = "process_ceiling";
    public static final String CREDENTIAL = "credential_env";
    public static final String OPEN_FILES = "open_files";
    public static final String MEMORY = "memory_ceiling";
    public static final String IPC = "ipc_scoping";
    public static final String DESCRIPTORS = "descriptor_seal";
    public static final String AUTHORITY = "least_authority";
    public static final String METADATA = "metadata_seal";

    public ProbeResults {
        outcomes = java.util.Collections.unmodifiableMap(new TreeMap<>(outcomes));
        Objects.requireNonNull(measuredAt);
    }

    /** The probe's outcome; a probe that never ran is unchecked, never satisfied. */
    public PrerequisiteStatus status(String probe) {
        return outcomes.getOrDefault(probe, new PrerequisiteStatus.Unchecked("probe " + probe + " did not run"));
    }
}
