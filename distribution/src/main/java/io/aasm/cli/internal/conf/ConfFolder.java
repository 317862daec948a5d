package io.aasm.cli.internal.conf;

import io.aasm.ports.kernel.FrameworkProperties;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.felix.fileinstall.ArtifactInstaller;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.SynchronousBundleListener;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.MetaTypeService;

/**
 * The operator's {@code conf/*.cfg} files, applied to Configuration Admin after a check against the
 * metatype of their PID.
 *
 * <p>At activation every file is applied at once, before the boot jar starts the bundles whose
 * components read configuration: the boot jar waits for this component's {@link Supplier} service
 * (JDK type, property {@value #SIGNAL}) and prints the problems it returns, so no launch ever runs
 * with a configuration that was not yet applied. Afterwards FileInstall, which watches {@code conf/}
 * in the shell and the resident kernel, reports changes here: this installer ranks above
 * FileInstall's own, unchecked one and also claims {@code .cfg}/{@code .config} files elsewhere, so
 * configuration comes from {@code conf/} only, and it claims every file in {@code conf/} so that no jar
 * there is ever installed as a bundle.
 */
@Component(service = {ArtifactInstaller.class, Supplier.class}, immediate = true,
        property = {ConfFolder.SIGNAL + "=applied", "service.ranking:Integer=1000"})
public final class ConfFolder implements ArtifactInstaller, Supplier<List<String>> {
    static final String SIGNAL = "aasm.conf";
    private final Optional<CfgApplier> applier;
    private final List<String> atStart;
    private final Consumer<String> log;
    private final Optional<BundleContext> ctx;
    /** Synchronous: a bundle's configuration is in place before it starts and SCR activates its components. */
    private final SynchronousBundleListener resolved = e -> {
        if (e.getType() == BundleEvent.RESOLVED) {
            retryUnknown();
        }
    };

    @Activate
    public ConfFolder(BundleContext ctx, @Reference ConfigurationAdmin cm, @Reference MetaTypeService metatype) {
        this(Optional.ofNullable(ctx.getProperty(FrameworkProperties.HOME)).map(h -> Path.of(h, "conf")),
                cm, new Metatypes(ctx, metatype), line -> System.err.println("aasm: " + line), Optional.of(ctx));
    }

    ConfFolder(Optional<Path> dir, ConfigurationAdmin cm, Metatypes metatypes, Consumer<String> log,
               Optional<BundleContext> ctx) {
        this.applier = dir.map(d -> new CfgApplier(cm, metatypes, d.toAbsolutePath().normalize()));
        this.log = log;
        this.ctx = ctx;
        this.atStart = applier.map(a -> a.applyAll().stream().filter(CfgApplier.Note::problem)
                .map(n -> "warning: " + n.text()).toList()).orElse(List.of());
        ctx.ifPresent(c -> c.addBundleListener(resolved));
    }

    @Deactivate
    void deactivate() {
        ctx.ifPresent(c -> c.removeBundleListener(resolved));
    }

    /** A file for a PID that a bundle resolved since declares (a backend dropped into deploy/) now applies. */
    void retryUnknown() {
        applier.ifPresent(a -> a.retryUnknown().forEach(this::report));
    }

    /** The problems of the files applied at activation, one line each (without the {@code aasm: } prefix). */
    @Override
    public List<String> get() {
        return atStart;
    }

    @Override
    public boolean canHandle(File artifact) {
        String name = artifact.getName();
        return inConf(artifact) || name.endsWith(CfgFile.SUFFIX) || name.endsWith(".config");
    }

    @Override
    public void install(File artifact) {
        changed(artifact);
    }

    @Override
    public void update(File artifact) {
        changed(artifact);
    }

    @Override
    public void uninstall(File artifact) {
        if (inConf(artifact)) {
            applier.flatMap(a -> a.removed(a.dir().resolve(artifact.getName()))).ifPresent(this::report);
        }
    }

    private void changed(File artifact) {
        if (inConf(artifact)) {
            applier.flatMap(a -> a.changed(a.dir().resolve(artifact.getName()))).ifPresent(this::report);
        } else {
            log.accept("warning: " + artifact + " was not applied: configuration files belong in conf/");
        }
    }

    private void report(CfgApplier.Note note) {
        log.accept((note.problem() ? "warning: " : "") + note.text());
    }

    /** By real path: FileInstall may name a file through another spelling of the same folder. */
    private boolean inConf(File artifact) {
        Path parent = artifact.toPath().toAbsolutePath().normalize().getParent();
        return applier.isPresent() && parent != null && real(applier.get().dir()).equals(real(parent));
    }

    private static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (java.io.IOException e) {
            return p;
        }
    }
}
