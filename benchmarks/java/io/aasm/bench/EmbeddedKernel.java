package io.aasm.bench;

import io.aasm.ports.kernel.FrameworkProperties;
import io.aasm.ports.kernel.IsolationKernel;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Supplier;
import java.util.jar.JarFile;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.osgi.framework.wiring.FrameworkWiring;
import org.osgi.util.tracker.ServiceTracker;

/**
 * The kernel as an embedding application gets it: a Felix framework started from the distribution's own
 * bundle set ({@code bundle/}, read-only: every jar is copied into this framework's cache at install), with
 * the distribution's {@code conf/} applied, and the {@link IsolationKernel} service looked up through the
 * exported {@code ports} API. The {@code ports} packages come from this JVM's class path through the
 * system bundle (the standard way to embed OSGi services), so the driver and the bundles share those
 * types; nothing here names a class of any {@code internal} package.
 */
final class EmbeddedKernel implements AutoCloseable {
    /** As the launcher does: configuration first, then everything that reads it. */
    private static final List<String> FIRST = List.of("org.apache.felix.configadmin", "org.apache.felix.metatype",
            "org.apache.felix.scr", "io.aasm.distribution");
    /** No hot deploy and no console in a benchmark. */
    private static final List<String> NOT_STARTED = List.of("org.apache.felix.fileinstall", "org.apache.felix.gogo.shell");
    private static final String CONF_SIGNAL = "(&(objectClass=java.util.function.Supplier)(aasm.conf=applied))";

    private final Framework framework;
    private final List<ServiceTracker<Object, Object>> trackers = new ArrayList<>();
    final IsolationKernel kernel;

    EmbeddedKernel(Path home, Path work, PrintStream log) throws Exception {
        Map<String, String> config = new HashMap<>();
        config.put(Constants.FRAMEWORK_STORAGE, work.resolve("felix").toString());
        config.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        config.put(Constants.FRAMEWORK_SYSTEMPACKAGES_EXTRA, exports(home.resolve("bundle/ports.jar")));
        config.put("felix.cm.dir", work.resolve("cm").toString());
        config.put(FrameworkProperties.HOME, home.toString());
        config.put(FrameworkProperties.PROTECTED_PATHS, protectedPaths(home, work));
        framework = ServiceLoader.load(FrameworkFactory.class).iterator().next().newFramework(config);
        framework.start();
        BundleContext ctx = framework.getBundleContext();
        for (Path jar : jars(home.resolve("bundle"))) {
            ctx.installBundle(jar.toUri().toString());
        }
        framework.adapt(FrameworkWiring.class).resolveBundles(null);
        start(ctx, true);
        for (Object problem : await(ctx, CONF_SIGNAL, Supplier.class).get() instanceof List<?> l ? l : List.of()) {
            log.println("aasm: " + problem);
        }
        start(ctx, false);
        kernel = await(ctx, "(objectClass=" + IsolationKernel.class.getName() + ")", IsolationKernel.class);
    }

    /** ports.jar's own Export-Package header, verbatim: the system bundle exports exactly what it would. */
    private static String exports(Path portsJar) throws IOException {
        try (JarFile jar = new JarFile(portsJar.toFile())) {
            return jar.getManifest().getMainAttributes().getValue(Constants.EXPORT_PACKAGE);
        }
    }

    /**
     * The launcher's list, for this process: the install, the aasm cache, this driver's state, the JDK, and
     * aasm's state folder (the audit log, which the distribution's audit bundle writes here too).
     */
    private static String protectedPaths(Path home, Path work) throws IOException {
        Path cache = xdg("XDG_CACHE_HOME", ".cache").resolve("aasm");
        Path state = xdg("XDG_STATE_HOME", ".local/state").resolve("aasm");
        List<String> paths = new ArrayList<>();
        for (Path p : new Path[] {home, cache, work, Path.of(System.getProperty("java.home")), state}) {
            paths.add(Files.exists(p) ? p.toRealPath().toString() : p.toAbsolutePath().normalize().toString());
        }
        return String.join(":", paths);
    }

    private static Path xdg(String variable, String underHome) {
        String v = System.getenv(variable);
        return v != null && v.startsWith("/") ? Path.of(v) : Path.of(System.getProperty("user.home"), underHome);
    }

    private static List<Path> jars(Path dir) throws IOException {
        List<Path> jars = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.jar")) {
            ds.forEach(jars::add);
        }
        jars.removeIf(p -> p.getFileName().toString().equals("ports.jar")); // the class path's copy is the one
        jars.sort(null);
        return jars;
    }

    private void start(BundleContext ctx, boolean first) throws BundleException {
        List<Bundle> order = new ArrayList<>(List.of(ctx.getBundles()));
        order.sort(java.util.Comparator.comparingInt(b -> FIRST.indexOf(b.getSymbolicName())));
        for (Bundle b : order) {
            String bsn = b.getSymbolicName();
            boolean fragment = b.getHeaders("").get(Constants.FRAGMENT_HOST) != null;
            if (b.getBundleId() != 0 && !fragment && FIRST.contains(bsn) == first && !NOT_STARTED.contains(bsn)) {
                b.start(Bundle.START_TRANSIENT);
            }
        }
    }

    /** The tracker stays open for the driver's lifetime, so the service is held, not released at once. */
    private <T> T await(BundleContext ctx, String filter, Class<T> type) throws Exception {
        ServiceTracker<Object, Object> t = new ServiceTracker<>(ctx, ctx.createFilter(filter), null);
        t.open();
        trackers.add(t);
        Object s = t.waitForService(60_000);
        if (s == null) {
            throw new IllegalStateException("no service " + filter + " within 60 s");
        }
        return type.cast(s);
    }

    @Override
    public void close() throws Exception {
        trackers.forEach(ServiceTracker::close);
        framework.stop();
        framework.waitForStop(30_000);
    }
}
