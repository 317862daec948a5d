package io.aasm.ports.kernel;

/**
 * Names of the framework properties (OSGi {@code BundleContext.getProperty}) that configure a deployment
 * of the kernel and that more than one bundle reads. A launcher sets them; the kernel and the front ends
 * read them. Typed component configuration (Configuration Admin) is separate: these are facts of the
 * running process that no configuration file may change.
 */
public final class FrameworkProperties {
    /**
     * Comma list of backend ids the {@code auto} and {@code process} walks try first. When set it
     * takes precedence over the kernel's configured {@code auto.walk}; a deployment that wants its
     * operators to configure the walk leaves it unset.
     */
    public static final String AUTO_WALK = "aasm.auto.walk";

    /**
     * Colon-separated absolute paths of the deployment's own state (installation, caches, runtime
     * directory, the Java that runs it) that no launch may write. The kernel adds them to every
     * {@link io.aasm.ports.backend.ExecutionSpec}.
     */
    public static final String PROTECTED_PATHS = "aasm.protected.paths";

    /** The installation directory ({@code bin/}, {@code bundle/}, {@code conf/}, {@code deploy/}). */
    public static final String HOME = "aasm.home";

    private FrameworkProperties() {
    }
}
