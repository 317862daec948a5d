package io.aasm.backend.vm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Typed configuration (PID io.aasm.backend.vm.qemu). Kernel-interface paths are configuration so tests can
 * point them elsewhere; the VM's size and slots are part of every template's key.
 */
@ObjectClassDefinition(name = "aasm QEMU VM backend", id = "io.aasm.backend.vm.qemu")
public @interface QemuVmConfig {
    @AttributeDefinition(description = "qemu-system-x86_64 to run (empty: the one on PATH)")
    String qemu_path() default "";

    @AttributeDefinition(description = "auto (KVM when /dev/kvm boots a guest here, else TCG), kvm or tcg")
    String accelerator() default "auto";

    @AttributeDefinition(description = "The VM's memory in MiB (the program's tree never gets more)")
    int memory_mib() default 512;

    @AttributeDefinition(description = "The VM's virtual CPUs")
    int vcpus() default 1;

    @AttributeDefinition(description = "Share slots: the most granted folders one launch can have")
    int slots() default 12;

    @AttributeDefinition(description = "How shares reach the guest: 9p (restored from a template) or virtiofs "
            + "(virtiofsd per share, a cold boot per launch; needs root)")
    String share_transport() default "9p";

    @AttributeDefinition(description = "A prebuilt guest image folder (empty: assemble one from the installed kernel package)")
    String image_dir() default "";

    @AttributeDefinition(description = "State folder: images, templates, run folders (empty: $XDG_CACHE_HOME/aasm/vm)")
    String state_dir() default "";

    @AttributeDefinition(description = "Probe cache folder (empty: $XDG_CACHE_HOME/aasm/probes)")
    String probe_cache_dir() default "";

    @AttributeDefinition(description = "Where Debian kernel images are")
    String boot_dir() default "/boot";

    @AttributeDefinition(description = "Where Debian kernel modules are")
    String modules_dir() default "/lib/modules";

    @AttributeDefinition(description = "The util-linux setpriv QEMU is started under")
    String setpriv_path() default "/usr/bin/setpriv";

    @AttributeDefinition(description = "Seconds a cold boot may take to reach the agent's hello")
    int boot_timeout_seconds() default 120;

    @AttributeDefinition(description = "Seconds a restored guest may take to answer a plan")
    int answer_timeout_seconds() default 60;
}
