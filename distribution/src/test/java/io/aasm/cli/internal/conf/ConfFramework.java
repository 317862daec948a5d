package io.aasm.cli.internal.conf;

import java.io.File;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.osgi.framework.wiring.FrameworkWiring;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.metatype.MetaTypeService;
import org.osgi.util.tracker.ServiceTracker;

/**
 * A real Felix with the real Configuration Admin and Metatype bundles, and aasm's kernel and sandlock
 * bundles resolved (not started: their metatype is what is read). The Configuration Admin and Metatype
 * API packages come from the class path through the system bundle, so this test talks to the services
 * with its own types.
 */
final class ConfFramework implements AutoCloseable {
    private static final String APIS = "org.osgi.service.cm;version=1.6.0,org.osgi.service.metatype;version=1.4.0";
    final Framework framework;
    final ConfigurationAdmin cm;
    final MetaTypeService metatype;

    ConfFramework(Path storage) throws Exception {
        Map<String, String> config = new HashMap<>();
        config.put(Constants.FRAMEWORK_STORAGE, storage.resolve("felix").toString());
        config.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        config.put(Constants.FRAMEWORK_SYSTEMPACKAGES_EXTRA, APIS);
        config.put("felix.cm.dir", storage.resolve("cm").toString());
        framework = ServiceLoader.load(FrameworkFactory.class).iterator().next().newFramework(config);
        framework.start();
        BundleContext ctx = framework.getBundleContext();
        for (String started : new String[] {"org.osgi.service.log-", "org.apache.felix.configadmin-",
                "org.apache.felix.metatype-"}) {
            ctx.installBundle(jar(started).toURI().toString()).start();
        }
        // SCR resolved, never started: the bundles require its extender to resolve, no component runs
        for (String library : new String[] {"jackson-core-", "jackson-databind-", "jackson-annotations-",
                "org.osgi.util.function-", "org.osgi.util.promise-", "org.osgi.service.component-1",
                "org.apache.felix.scr-"}) {
            ctx.installBundle(jar(library).toURI().toString());
        }
        for (String module : new String[] {"ports", "kernel", "support-canary", "adapter-sandlock"}) {
            ctx.installBundle(sibling(module));
        }
        // metatype is read from resolved bundles only; the launcher resolves everything before it starts any
        framework.adapt(FrameworkWiring.class).resolveBundles(null);
        cm = service(ctx, ConfigurationAdmin.class);
        metatype = service(ctx, MetaTypeService.class);
    }

    BundleContext context() {
        return framework.getBundleContext();
    }

    private static <T> T service(BundleContext ctx, Class<T> type) throws InterruptedException {
        ServiceTracker<T, T> t = new ServiceTracker<>(ctx, type, null);
        t.open();
        T s = t.waitForService(30_000);
        if (s == null) {
            throw new AssertionError("no " + type.getName() + " service");
        }
        return s;
    }

    /** A sibling module: its jar, or (a reactor build before packaging) its exploded target/classes. */
    static String sibling(String module) {
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            File f = new File(entry);
            if (f.getName().startsWith(module + "-0") && f.getName().endsWith(".jar")) {
                return f.toURI().toString();
            }
            if (f.isDirectory() && f.toPath().endsWith(Path.of(module, "target", "classes"))) {
                return "reference:" + f.toURI();
            }
        }
        throw new AssertionError("module " + module + " is not on the test class path");
    }

    static File jar(String prefix) {
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            File f = new File(entry);
            if (f.getName().startsWith(prefix) && f.getName().endsWith(".jar")) {
                return f;
            }
        }
        throw new AssertionError("no " + prefix + "*.jar on the test class path");
    }

    @Override
    public void close() throws Exception {
        framework.stop();
        framework.waitForStop(30_000);
    }
}
