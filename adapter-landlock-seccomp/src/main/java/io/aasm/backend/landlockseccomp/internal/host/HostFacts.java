package io.aasm.backend.landlockseccomp.internal.host;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What this host offers, as detected (or as narrowed by configuration to simulate a weaker host).
 * {@code landlockAbi} 0 means no Landlock.
 */
public record HostFacts(
        Optional<Arch> arch,
        String osArch,
        String kernelRelease,
        String bootId,
        int landlockAbi,
        boolean seccompFilter,
        boolean libseccomp,
        int euid,
        OptionalInt maxUserNamespaces,
        Optional<Boolean> unprivilegedUsernsClone,
        CgroupLayout cgroups) {
    public HostFacts {
        Objects.requireNonNull(arch);
        Objects.requireNonNull(osArch);
        Objects.requireNonNull(kernelRelease);
        Objects.requireNonNull(bootId);
        Objects.requireNonNull(maxUserNamespaces);
        Objects.requireNonNull(unprivilegedUsernsClone);
        Objects.requireNonNull(cgroups);
    }

    public boolean root() {
        return euid == 0;
    }

    /** Whether an unprivileged process may create a user namespace (the route to every other namespace). */
    public boolean userNamespaces() {
        return maxUserNamespaces.orElse(0) > 0 && unprivilegedUsernsClone.orElse(true);
    }

    /** Namespaces are reachable either as root or through a user namespace. */
    public boolean namespaces() {
        return root() || userNamespaces();
    }

    /** The same host seen with a lower Landlock ABI and/or without root, for refusal tests and operators. */
    public HostFacts narrowed(int maxLandlockAbi, boolean assumeUnprivileged, boolean assumeNoUserNamespaces) {
        int abi = maxLandlockAbi >= 0 ? Math.min(landlockAbi, maxLandlockAbi) : landlockAbi;
        int uid = assumeUnprivileged && euid == 0 ? 65534 : euid;
        OptionalInt userns = assumeNoUserNamespaces ? OptionalInt.of(0) : maxUserNamespaces;
        return new HostFacts(arch, osArch, kernelRelease, bootId, abi, seccompFilter, libseccomp, uid, userns,
                unprivilegedUsernsClone, cgroups);
    }

    public String describe() {
        return "arch=" + arch.map(Arch::token).orElse(osArch + " (unknown)") + " kernel=" + kernelRelease
                + " landlock_abi=" + landlockAbi + " seccomp_filter=" + seccompFilter + " libseccomp=" + libseccomp
                + " euid=" + euid + " user_namespaces=" + userNamespaces() + " cgroups=" + cgroups.describe();
    }
}
