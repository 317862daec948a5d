package io.aasm.backend.sandlock.internal.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Grant paths against a real folder tree: what a symlinked grant resolves to and how it is named, which
 * write grants cannot be given (through a link root does not own, over or inside aasm's own paths), and
 * how writes opened for an unstated domain go beside aasm's paths instead of over them.
 */
class GrantPathsTest {
    @TempDir
    Path tmp;

    private final RequirementLowerer lowerer = new RequirementLowerer();

    private DomainLowering lower(CapabilityDomain d, OwnPaths own, String... paths) {
        return lowerer.lower(ControlRequirement.strict(d, new Scope.Paths(List.of(paths))), own);
    }

    @Test
    void aSymlinkedGrantIsHandedToSandlockAsItsRealPathAndNamed() throws IOException {
        Path real = Files.createDirectories(tmp.resolve("victim")).toRealPath();
        Path link = Files.createSymbolicLink(Files.createDirectories(tmp.resolve("shared")).resolve("sub"), real);
        DomainLowering.Flags f = assertInstanceOf(DomainLowering.Flags.class,
                lower(CapabilityDomain.FILESYSTEM_READ, OwnPaths.none(), link.toString()));
        assertEquals(List.of("--fs-read=" + real), f.flags());
        assertTrue(f.steps().get(0).contains("granted as " + link + ", which resolves through a symlink to " + real),
                f.steps().toString());
        Grant g = Grant.resolve(link.toString());
        assertEquals(real.toString(), g.real());
        assertTrue(g.redirected());
    }

    @Test
    void relativeLinksAndDotDotResolvePhysically() throws IOException {
        Path a = Files.createDirectories(tmp.resolve("a/b")).toRealPath();
        Files.createSymbolicLink(tmp.resolve("l"), Path.of("a/b"));
        // l/.. is a (the link's parent), not tmp: the kernel resolves .. after following the link
        assertEquals(a.getParent().toString(), Grant.resolve(tmp.toRealPath() + "/l/..").real());
        assertEquals(tmp.toRealPath().resolve("nothing/here").toString(),
                Grant.resolve(tmp.toRealPath() + "/nothing/here").real(), "missing components are kept as written");
    }

    @Test
    void aWriteGrantThroughALinkRootDoesNotOwnIsRefused() throws IOException {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "environment cannot host this check: giving a link to another owner needs root");
        Path real = Files.createDirectories(tmp.resolve("victim")).toRealPath();
        Path link = Files.createSymbolicLink(tmp.resolve("planted"), real);
        Files.setAttribute(link, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);
        String why = assertInstanceOf(DomainLowering.Inexpressible.class,
                lower(CapabilityDomain.FILESYSTEM_WRITE, OwnPaths.none(), link.toString())).reason();
        assertTrue(why.contains("owned by uid 65534, not root") && why.contains(real.toString()), why);
        // control: the same link owned by root is followed and named, and a read grant through either is named
        Files.setAttribute(link, "unix:uid", 0, LinkOption.NOFOLLOW_LINKS);
        assertInstanceOf(DomainLowering.Flags.class, lower(CapabilityDomain.FILESYSTEM_WRITE, OwnPaths.none(),
                link.toString()));
    }

    @Test
    void writeGrantsOverOrInsideAasmsOwnPathsAreRefused() throws IOException {
        Path cache = Files.createDirectories(tmp.resolve("home/.cache/aasm"));
        OwnPaths own = OwnPaths.of(List.of(cache.toString(), tmp.resolve("absent").toString()));
        String over = assertInstanceOf(DomainLowering.Inexpressible.class,
                lower(CapabilityDomain.FILESYSTEM_WRITE, own, tmp.resolve("home").toString())).reason();
        assertTrue(over.contains("covers aasm's own state " + cache.toRealPath()), over);
        String inside = assertInstanceOf(DomainLowering.Inexpressible.class,
                lower(CapabilityDomain.FILESYSTEM_WRITE, own, cache.resolve("probes").toString())).reason();
        assertTrue(inside.contains("lies inside aasm's own state"), inside);
        // control: a sibling is granted, and reads over aasm's paths are fine
        Path sibling = Files.createDirectories(tmp.resolve("home/project"));
        assertInstanceOf(DomainLowering.Flags.class, lower(CapabilityDomain.FILESYSTEM_WRITE, own, sibling.toString()));
        assertInstanceOf(DomainLowering.Flags.class, lower(CapabilityDomain.FILESYSTEM_READ, own,
                tmp.resolve("home").toString()));
    }

    @Test
    void unstatedWritesAreOpenedBesideAasmsPathsNeverOverThem() throws IOException {
        Path root = tmp.toRealPath();
        Path cache = Files.createDirectories(root.resolve("home/.cache/aasm"));
        Files.createDirectories(root.resolve("home/.cache/other"));
        Files.createDirectories(root.resolve("home/work"));
        Files.writeString(root.resolve("home/file"), "x");
        Files.createSymbolicLink(root.resolve("home/into"), cache);
        Files.createSymbolicLink(root.resolve("home/elsewhere"), root.resolve("home/work"));
        OwnPaths own = OwnPaths.of(List.of(cache.toString()));
        List<String> open = own.writableBeneath(root.toString());
        assertTrue(open.containsAll(List.of(root + "/home/.cache/other", root + "/home/work", root + "/home/file",
                root + "/home/elsewhere")), open.toString());
        assertFalse(open.stream().anyMatch(p -> Grant.under(cache.toString(), p) || Grant.under(p, cache.toString())),
                "no grant over or inside aasm's cache: " + open);
        assertFalse(open.contains(root + "/home/into"), "a link into aasm's cache is left out");
        assertEquals(List.of(root.toString()), OwnPaths.none().writableBeneath(root.toString()), "nothing to avoid");
        ControlRequirement reads = ControlRequirement.strict(CapabilityDomain.FILESYSTEM_READ,
                new Scope.Paths(List.of(root.resolve("home").toString())));
        AbsentLowering.Absent w = AbsentLowering.lower(List.of(reads), own).stream()
                .filter(a -> a.domain() == CapabilityDomain.FILESYSTEM_WRITE).findFirst().orElseThrow();
        assertTrue(w.flags().contains("--fs-write=/dev/null") && w.flags().contains("--fs-write=" + root + "/home/work"),
                w.flags().toString());
        assertTrue(w.residual().stream().anyMatch(r -> r.contains("stay read-only")), w.residual().toString());
    }
}
