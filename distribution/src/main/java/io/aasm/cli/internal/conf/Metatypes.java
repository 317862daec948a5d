package io.aasm.cli.internal.conf;

import java.util.Arrays;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.metatype.MetaTypeInformation;
import org.osgi.service.metatype.MetaTypeService;
import org.osgi.service.metatype.ObjectClassDefinition;

/**
 * Which configuration PIDs the installed bundles declare ({@code @Designate}d configuration types,
 * published as OSGi metatype), and the definition of each. Asked anew every time, so a backend bundle
 * dropped into {@code deploy/} brings its PID with it.
 */
final class Metatypes {
    private final BundleContext ctx;
    private final MetaTypeService metatype;

    Metatypes(BundleContext ctx, MetaTypeService metatype) {
        this.ctx = ctx;
        this.metatype = metatype;
    }

    Optional<ObjectClassDefinition> definition(String pid) {
        for (Bundle b : ctx.getBundles()) {
            MetaTypeInformation info = info(b);
            if (info != null && Arrays.asList(info.getPids()).contains(pid)) {
                return Optional.ofNullable(info.getObjectClassDefinition(pid, null));
            }
        }
        return Optional.empty();
    }

    SortedSet<String> pids() {
        SortedSet<String> pids = new TreeSet<>();
        for (Bundle b : ctx.getBundles()) {
            MetaTypeInformation info = info(b);
            if (info != null) {
                pids.addAll(Arrays.asList(info.getPids()));
            }
        }
        return pids;
    }

    private MetaTypeInformation info(Bundle b) {
        if (b.getState() == Bundle.UNINSTALLED) {
            return null;
        }
        try {
            return metatype.getMetaTypeInformation(b);
        } catch (IllegalArgumentException | IllegalStateException e) {
            return null; // a bundle uninstalled meanwhile, or a fragment: it declares nothing here
        }
    }
}
