package io.aasm.kernel.internal.lowering;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.PolicyLowering;
import io.aasm.ports.policy.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Puts the launch's working directory in place of {@code $WORKDIR} in filesystem grants, before any backend
 * or report sees them (a policy is loaded once and cached; the working directory is the request's). A write
 * grant of the working directory is refused when that directory is the whole filesystem or the caller's home
 * (or holds it): a policy meant for "the project I am in" must not quietly grant ~/.bashrc or /etc.
 */
public final class WorkingDirectoryGrants {
    private WorkingDirectoryGrants() {
    }

    /** The lowering with real paths, or why the working directory cannot be granted. */
    public sealed interface Bound {
        record Ok(PolicyLowering lowering) implements Bound {
        }

        record TooWide(String message) implements Bound {
        }
    }

    public static Bound bind(PolicyLowering l, String workdir, Map<String, String> callerEnv) {
        List<ControlRequirement> out = new ArrayList<>();
        boolean changed = false;
        for (ControlRequirement r : l.requirements()) {
            if (!(r.scope() instanceof Scope.Paths p) || p.paths().stream().noneMatch(Scope.Paths::relativeToWorkingDirectory)) {
                out.add(r);
                continue;
            }
            Optional<String> tooWide = r.domain() == CapabilityDomain.FILESYSTEM_WRITE
                    ? tooWide(p, workdir, callerEnv.get("HOME")) : Optional.empty();
            if (tooWide.isPresent()) {
                return new Bound.TooWide(tooWide.get());
            }
            List<String> paths = p.paths().stream().map(x -> Scope.Paths.relativeToWorkingDirectory(x)
                    ? join(workdir, x.substring(Scope.Paths.WORKING_DIRECTORY.length())) : x).distinct().toList();
            out.add(new ControlRequirement(r.domain(), r.intent(), r.posture(), r.descendants(),
                    new Scope.Paths(paths, p.privateDirs())));
            changed = true;
        }
        return new Bound.Ok(changed ? new PolicyLowering(l.origin(), l.isolation(), out, l.domains(), l.unmapped()) : l);
    }

    private static Optional<String> tooWide(Scope.Paths p, String workdir, String home) {
        boolean exact = p.paths().contains(Scope.Paths.WORKING_DIRECTORY);
        if (!exact) {
            return Optional.empty();
        }
        if (workdir.equals("/")) {
            return Optional.of("the policy grants writing " + Scope.Paths.WORKING_DIRECTORY + ", and the working "
                    + "directory is / (the whole filesystem); launch from the project's folder instead");
        }
        if (home != null && home.startsWith("/") && (home.equals(workdir) || home.startsWith(workdir + "/"))) {
            return Optional.of("the policy grants writing " + Scope.Paths.WORKING_DIRECTORY + ", and the working "
                    + "directory " + workdir + " is (or holds) your home " + home + ", whose files run at your next "
                    + "login; launch from the project's folder instead, or grant the paths explicitly");
        }
        return Optional.empty();
    }

    private static String join(String dir, String rest) {
        return rest.isEmpty() ? dir : dir.equals("/") ? rest : dir + rest;
    }
}
