package io.aasm.cli.boot;

import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.wiring.FrameworkWiring;

/**
 * Brings the bundle cache in line with the jars on disk: installs new jars, updates changed ones,
 * uninstalls bundles whose jar is gone (a backend removed from deploy/ must not linger in the cache).
 * Jars are installed by {@code reference:}, so Felix reads them in place instead of copying them.
 */
final class BundleSet {
    private static final List<String> LAST = List.of("org.apache.felix.fileinstall", "org.apache.felix.gogo.shell");
    private final Map<String, File> wanted = new LinkedHashMap<>();
    private final List<String> installOnly = new ArrayList<>();
    final List<String> problems = new ArrayList<>();

    /** Adds every *.jar of a folder (sorted), minus names starting with one of the excluded prefixes. */
    BundleSet addFolder(Path dir, List<String> excludedPrefixes) throws IOException {
        if (!Files.isDirectory(dir)) {
            return this;
        }
        List<Path> jars = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.jar")) {
            ds.forEach(jars::add);
        }
        jars.sort(null);
        for (Path jar : jars) {
            String name = jar.getFileName().toString();
            if (excludedPrefixes.stream().noneMatch(name::startsWith)) {
                File f = jar.toAbsolutePath().normalize().toFile();
                wanted.put("reference:" + f.toURI(), f);
            }
        }
        return this;
    }

    /** Bundles (by symbolic name) installed and resolved for the packages they export, but never started. */
    BundleSet installOnly(List<String> symbolicNames) {
        installOnly.addAll(symbolicNames);
        return this;
    }

    /** Call between {@code init()} and {@code start()}. */
    void reconcile(BundleContext ctx) {
        Map<String, Bundle> installed = new HashMap<>();
        for (Bundle b : ctx.getBundles()) {
            if (b.getBundleId() != 0) {
                installed.put(b.getLocation(), b);
            }
        }
        for (Map.Entry<String, Bundle> e : installed.entrySet()) {
            if (!wanted.containsKey(e.getKey())) {
                attempt(e.getValue().getLocation(), () -> e.getValue().uninstall());
            }
        }
        for (Map.Entry<String, File> e : wanted.entrySet()) {
            Bundle b = installed.get(e.getKey());
            if (b == null) {
                attempt(e.getKey(), () -> ctx.installBundle(e.getKey()));
            } else if (e.getValue().lastModified() > b.getLastModified()) {
                attempt(e.getKey(), b::update);
            }
        }
    }

    /**
     * Resolves every bundle, then starts every non-fragment bundle, transiently (so the next boot does not auto-start them in
     * bundle-id order): those named in {@code first} in that order, then {@code between} runs, then the
     * rest, FileInstall and the interactive shell last (FileInstall finds every installer registered;
     * the shell's first prompt already has the aasm commands). A bundle that cannot start is a problem,
     * not a crash.
     */
    void startAll(BundleContext ctx, List<String> first, Runnable between) {
        // Everything resolved before anything starts: the conf/ check reads the metatype of bundles that
        // start only after it, and Metatype reads resolved bundles only. What cannot resolve stays a problem.
        ctx.getBundle(0).adapt(FrameworkWiring.class).resolveBundles(null);
        List<Bundle> order = new ArrayList<>();
        for (Bundle b : ctx.getBundles()) {
            if (b.getBundleId() != 0 && b.getHeaders("").get(Constants.FRAGMENT_HOST) == null) {
                order.add(b);
            }
        }
        order.sort(Comparator.comparingInt((Bundle b) -> rank(first, b.getSymbolicName())));
        boolean betweenRan = false;
        for (Bundle b : order) {
            if (!betweenRan && !first.contains(b.getSymbolicName())) {
                between.run();
                betweenRan = true;
            }
            if (b.getState() != Bundle.ACTIVE && !installOnly.contains(b.getSymbolicName())) {
                long t0 = System.nanoTime();
                attempt(b.getSymbolicName(), () -> b.start(Bundle.START_TRANSIENT));
                Timing.bundle(b.getSymbolicName(), System.nanoTime() - t0);
            }
        }
        if (!betweenRan) {
            between.run();
        }
    }

    /** {@code first} in its order, then everything else, then {@link #LAST} in its order. */
    private static int rank(List<String> first, String bsn) {
        int i = first.indexOf(bsn);
        if (i >= 0) {
            return i - first.size();
        }
        int j = LAST.indexOf(bsn);
        return j >= 0 ? 1 + j : 0;
    }

    private interface Action {
        void run() throws BundleException;
    }

    private void attempt(String what, Action action) {
        try {
            action.run();
        } catch (BundleException | RuntimeException e) {
            problems.add(what + ": " + e.getMessage());
        }
    }
}
