package io.aasm.backend.vm.internal.probe;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Everything whose change could change what the probes observe, by name: the backend and its version, the
 * probe suite's version, the host kernel, the QEMU binary's digest, the guest kernel's and initramfs's digests,
 * the agent's, the VM shape and the accelerator mode. A cached verdict is read back only under an equal key,
 * so a verdict measured with another QEMU or guest is never trusted here.
 */
public record ProbeKey(Map<String, String> parts) {
    public ProbeKey {
        parts = Collections.unmodifiableMap(new LinkedHashMap<>(parts));
    }

    /** The backend's own parts first, then the hypervisor's (qemu_sha256, kernel_sha256, ...). */
    public static ProbeKey of(String backendId, String backendVersion, Map<String, String> hypervisor) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("backend", backendId);
        p.put("backend_version", backendVersion);
        p.put("probe_suite", Integer.toString(VmProbeSuite.VERSION));
        p.put("host_kernel", System.getProperty("os.version"));
        p.putAll(hypervisor);
        return new ProbeKey(p);
    }

    public String backend() {
        return parts.get("backend");
    }
}
