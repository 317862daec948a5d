package io.aasm.backend.vm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Typed configuration (PID io.aasm.backend.vm.macos) of {@code aasm-macos-vm}. The helper runs only with its
 * digest pinned here; the guest image must be given (a Mac has no Debian kernel package to assemble it from).
 */
@ObjectClassDefinition(name = "aasm macOS VM backend", id = "io.aasm.backend.vm.macos")
public @interface MacosVmConfig {
    @AttributeDefinition(description = "The signed aasm-vz helper (empty: none, the backend is unavailable)")
    String helper_path() default "";

    @AttributeDefinition(description = "The helper's SHA-256 (64 hex digits); a helper with another digest is refused")
    String helper_sha256() default "";

    @AttributeDefinition(description = "The guest image folder (image.json, kernel, initramfs) for this Mac's architecture")
    String image_dir() default "";

    @AttributeDefinition(description = "The VM's memory in MiB (the program's tree never gets more)")
    int memory_mib() default 512;

    @AttributeDefinition(description = "The VM's virtual CPUs")
    int vcpus() default 1;

    @AttributeDefinition(description = "Share slots: the most granted folders one launch can have")
    int slots() default 12;

    @AttributeDefinition(description = "State folder: run folders (empty: $XDG_CACHE_HOME/aasm/vm-macos)")
    String state_dir() default "";

    @AttributeDefinition(description = "Probe cache folder (empty: $XDG_CACHE_HOME/aasm/probes)")
    String probe_cache_dir() default "";

    @AttributeDefinition(description = "Seconds a cold boot may take to reach the agent's hello")
    int boot_timeout_seconds() default 120;

    @AttributeDefinition(description = "Seconds a booted guest may take to answer a plan")
    int answer_timeout_seconds() default 60;
}
