package io.aasm.cli.boot;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.ToIntFunction;
import io.aasm.cli.boot.resident.Resident;
import io.aasm.cli.boot.resident.ResidentPath;
import io.aasm.ports.kernel.FrameworkProperties;
import org.osgi.framework.BundleContext;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.osgi.util.tracker.ServiceTracker;

/**
 * {@code bin/aasm}: boots embedded Felix, runs one command through the headless entry service of the
 * distribution bundle, stops and exits with the command's status. {@code aasm shell} instead starts
 * the Gogo shell and FileInstall and returns when the shell stops the framework; {@code aasm daemon run}
 * boots the resident kernel's framework and serves until it stops. Those two are the only command words
 * read here, to choose what to boot: every command, those two included, is defined (options, help,
 * exit codes) by the picocli layer in the distribution bundle. Every mode applies {@code conf/*.cfg}
 * before the kernel starts ({@link ConfStart}); the shell and the resident kernel have FileInstall watch
 * {@code deploy/} and {@code conf/}.
 *
 * <p>The entry service is looked up by JDK types only ({@code ToIntFunction<Map<String,Object>>} with
 * {@code aasm.cli.entry=headless}), so the boot jar shares no class with any bundle. It names framework
 * properties by the constants of {@code io.aasm.ports.kernel.FrameworkProperties}: compile-time constants,
 * inlined by javac, so {@code ports} is on the boot jar's compile path only, never on its class path.
 */
public final class Main {
    static final String ENTRY_FILTER = "(&(objectClass=java.util.function.ToIntFunction)(aasm.cli.entry=headless))";
    // the one-shot CLI has no shell, and no FileInstall running: it reads deploy/ and conf/ once, at start
    private static final List<String> SHELL_ONLY = List.of("org.apache.felix.gogo.");
    // installed all the same: the command bundle imports its package (conf/ changes reach it through it)
    private static final List<String> CLI_NOT_STARTED = List.of("org.apache.felix.fileinstall");
    // the resident kernel keeps FileInstall (hot deploy, conf/ changes) but has no console
    private static final List<String> DAEMON_EXCLUDED = List.of("org.apache.felix.gogo.shell");
    private static final int FAILED_BEFORE_START = 125;

    private Main() {
    }

    public static void main(String[] args) {
        // Keep the real streams: Gogo's ThreadIO replaces System.out/err once it starts.
        Timing.jvmStarted();
        PrintStream out = System.out;
        PrintStream err = System.err;
        InputStream in = System.in;
        // what to boot, not what to do: `shell --help`, `daemon run --bogus` and the rest go to the command layer
        boolean shell = args.length == 1 && args[0].equals("shell");
        boolean daemon = args.length == 2 && args[0].equals("daemon") && args[1].equals("run");
        boolean verbose = System.getenv("AASM_DEBUG") != null;
        int rc = FAILED_BEFORE_START;
        Framework fw = null;
        CacheLease lease = null;
        PrivateTemp temp = null;
        StderrLogger logger = new StderrLogger(err, verbose);
        try {
            Path home = home();
            String version = System.getProperty("aasm.version", Main.class.getPackage().getImplementationVersion());
            Path cache = CacheDir.prepare();
            temp = PrivateTemp.create(cache);
            // JNA reads it when it first extracts a library: before any bundle can load JNA
            System.setProperty("jna.tmpdir", temp.sub("jna").toString());
            lease = CacheLease.acquire(cache, "felix-" + version + (shell ? "-shell-" : daemon ? "-daemon-" : "-cli-")
                    + Integer.toHexString(home.toString().hashCode()), temp);
            Map<String, Object> config = config(home, version, lease, shell, logger);
            Path sock = ResidentPath.socket();
            config.put("aasm.resident.path", sock.toString()); // where `aasm daemon …` finds the kernel
            if (daemon) {
                ResidentPath.prepareDirectory(sock);
                config.put("aasm.resident.socket", sock.toString());
            } else {
                // Made now, 0700 and ours, so it exists to be protected: a launch that could create it (under
                // a /tmp it may write) could put a socket of its own where the kernel's belongs.
                try {
                    ResidentPath.prepareDirectory(sock);
                } catch (IOException e) {
                    // not ours to use: clients refuse such a directory themselves
                }
            }
            // after conf/framework.properties: these describe this process and cannot be configured away
            config.put("felix.fileinstall.tmpdir", temp.sub("fileinstall").toString());
            // Configuration Admin keeps nothing between runs: conf/ is the whole configuration, every start
            config.put("felix.cm.dir", temp.sub("cm").toString());
            config.put("aasm.tmp.dir", temp.dir().toString());
            config.put(ProtectedPaths.PROPERTY, ProtectedPaths.of(home, cache, sock.getParent(),
                    Path.of(System.getProperty("java.home")), ProtectedPaths.stateDir()));
            @SuppressWarnings({"unchecked", "rawtypes"})
            Map<String, String> raw = (Map) config;
            fw = ServiceLoader.load(FrameworkFactory.class).iterator().next().newFramework(raw);
            fw.init();
            Timing.mark("framework init");
            BundleSet set = new BundleSet().addFolder(home.resolve("bundle"), shell ? List.of() : daemon ? DAEMON_EXCLUDED : SHELL_ONLY)
                    .installOnly(shell || daemon ? List.of() : CLI_NOT_STARTED);
            if (!shell && !daemon) {
                // The one-shot CLI installs deploy/ itself, synchronously, so every run sees the same set.
                set.addFolder(home.resolve("deploy"), List.of());
            }
            set.reconcile(fw.getBundleContext());
            Timing.mark("bundle install/update");
            fw.start();
            BundleContext ctx = fw.getBundleContext();
            set.startAll(ctx, ConfStart.FIRST,
                    () -> ConfStart.await(ctx, Long.getLong("aasm.start.timeout.ms", 20_000), err));
            Timing.mark("resolve + start");
            for (String p : set.problems) {
                err.println("aasm: warning: bundle " + p);
            }
            if (shell) {
                fw.waitForStop(0);
                rc = 0;
            } else if (daemon) {
                rc = Resident.serve(fw, err, logger.errors);
            } else {
                rc = runHeadless(fw.getBundleContext(), args, in, out, err, logger);
            }
        } catch (CannotStart e) {
            err.println("aasm: " + e.getMessage());
            rc = FAILED_BEFORE_START;
        } catch (Throwable t) {
            err.println("aasm: internal error before the program started: " + t);
            if (verbose) {
                t.printStackTrace(err);
            }
            rc = FAILED_BEFORE_START;
        } finally {
            Timing.mark("command");
            stop(fw);
            Timing.mark("framework stop");
            Timing.print(err);
            if (lease != null) {
                lease.close();
            }
            if (temp != null) {
                temp.close();
            }
            out.flush();
            err.flush();
            System.exit(rc);
        }
    }

    private static int runHeadless(BundleContext ctx, String[] args, InputStream in, PrintStream out, PrintStream err,
                                   StderrLogger logger) throws Exception {
        ServiceTracker<Object, Object> tracker = new ServiceTracker<>(ctx, ctx.createFilter(ENTRY_FILTER), null);
        tracker.open();
        try {
            long timeout = Long.getLong("aasm.start.timeout.ms", 20_000);
            Object entry = tracker.waitForService(timeout);
            Timing.mark("entry service");
            if (entry == null) {
                err.println("aasm: the aasm command bundle did not start within " + timeout + " ms;"
                        + " nothing was launched. Framework errors:");
                logger.errors.forEach(e -> err.println("  - " + e));
                return FAILED_BEFORE_START;
            }
            AtomicReference<IntConsumer> onSignal = new AtomicReference<>();
            AtomicInteger firstSignal = new AtomicInteger();
            Signals.forward(firstSignal, onSignal);
            Map<String, Object> call = new HashMap<>();
            call.put("args", args);
            call.put("in", in);
            call.put("out", out);
            call.put("err", err);
            call.put("env", System.getenv());
            call.put("cwd", Paths.get("").toAbsolutePath().toString());
            call.put("firstSignal", firstSignal);
            call.put("onSignal", onSignal);
            call.put("frameworkErrors", logger.errors);
            @SuppressWarnings("unchecked")
            ToIntFunction<Map<String, Object>> fn = (ToIntFunction<Map<String, Object>>) entry;
            return fn.applyAsInt(call);
        } finally {
            tracker.close();
        }
    }

    private static Map<String, Object> config(Path home, String version, CacheLease lease, boolean shell,
                                              StderrLogger logger) {
        Map<String, Object> c = new HashMap<>();
        c.put("org.osgi.framework.storage", lease.storage().toString());
        if (lease.temporary()) {
            c.put("org.osgi.framework.storage.clean", "onFirstInit");
        }
        c.put("felix.log.logger", logger);
        c.put("felix.log.level", String.valueOf(logger.getLogLevel()));
        c.put(FrameworkProperties.HOME, home.toString());
        c.put("aasm.version", version);
        if (home.toString().contains(",")) {
            // FileInstall splits its folder list at commas: it would watch a path relative to the working directory
            throw new CannotStart("aasm cannot watch " + home + ": its path contains ','; nothing was started");
        }
        c.put("felix.fileinstall.dir", home.resolve("deploy") + "," + home.resolve("conf"));
        c.put("felix.fileinstall.poll", "250");
        c.put("felix.fileinstall.noInitialDelay", "true");
        c.put("felix.fileinstall.log.level", "1");
        // java.util.logging writes to stderr; FileInstall's own default is stdout, the program's stream
        c.put("felix.fileinstall.log.default", "jul");
        // conf/ is the operator's: never rewritten from what Configuration Admin holds
        c.put("felix.fileinstall.enableConfigSave", "false");
        if (!shell) {
            c.put("gosh.args", "--nointeractive");
        }
        Properties conf = new Properties();
        try (Reader r = Files.newBufferedReader(home.resolve("conf").resolve("framework.properties"))) {
            conf.load(r);
        } catch (IOException e) {
            // no conf/framework.properties: built-in defaults only
        }
        for (String name : conf.stringPropertyNames()) {
            c.put(name, System.getProperty(name, conf.getProperty(name)));
        }
        for (String name : List.of(FrameworkProperties.AUTO_WALK, "aasm.kernel.timeout.ms")) {
            if (System.getProperty(name) != null) {
                c.put(name, System.getProperty(name));
            }
        }
        return c;
    }

    static Path home() throws URISyntaxException {
        String prop = System.getProperty(FrameworkProperties.HOME);
        if (prop != null) {
            return Paths.get(prop).toAbsolutePath().normalize();
        }
        Path jar = Paths.get(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return jar.getParent().getParent().toAbsolutePath().normalize();
    }

    private static void stop(Framework fw) {
        if (fw == null) {
            return;
        }
        try {
            fw.stop();
            fw.waitForStop(TimeUnit.SECONDS.toMillis(5));
        } catch (Exception | LinkageError e) {
            // exiting anyway; System.exit below ends Felix's non-daemon threads
        }
    }
}
