package io.aasm.backend.landlockseccomp.internal.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The answers a grant's resolution was decided from, asked again: each change of the tree that can change a plan
 * makes them fail; the unchanged tree keeps them (the control of each).
 */
class PathFactsTest {
    @TempDir
    Path tmp;
    Path a;
    Path b;
    Path link;

    @BeforeEach
    void tree() throws Exception {
        a = Files.createDirectories(tmp.resolve("a"));
        b = Files.createDirectories(tmp.resolve("b"));
        link = Files.createSymbolicLink(tmp.resolve("link"), a);
    }

    private PathFacts resolved(String path) throws Exception {
        RecordedReads reads = new RecordedReads();
        Optional<Grant> g = Grant.resolve(path, reads);
        assertEquals(g, Grant.resolve(path), "recorded reads resolve as direct ones do");
        assertTrue(reads.complete());
        return reads.facts();
    }

    @Test
    void unchangedTreeHolds() throws Exception {
        PathFacts f = resolved(link.resolve("x").toString());
        Files.writeString(a.resolve("x"), "made after: a missing path was an answer");
        assertFalse(f.stillHold(), "a path that was missing and exists now");
        PathFacts again = resolved(link.resolve("x").toString());
        Files.writeString(a.resolve("x"), "content is not an answer");
        assertTrue(again.stillHold(), "control: nothing the resolution read changed");
    }

    @Test
    void symlinkRePointedFails() throws Exception {
        PathFacts f = resolved(link.toString());
        Path next = tmp.resolve("link.new");
        Files.createSymbolicLink(next, b);
        Files.move(next, link, StandardCopyOption.ATOMIC_MOVE);
        assertFalse(f.stillHold());
    }

    @Test
    void symlinkContentIsReadAgainNotTrustedByIdentity() throws Exception {
        PathFacts f = resolved(link.toString());
        // lstat answers the same (a stand-in that changes nothing but the content); readlink does not
        PathReads sameNodesOtherTarget = new PathReads() {
            public Node lstat(Path p) {
                return PathReads.DIRECT.lstat(p);
            }

            public Node stat(Path p) {
                return PathReads.DIRECT.stat(p);
            }

            public String readlink(Path p) {
                return b.toString();
            }

            public boolean writable(Path p) {
                return PathReads.DIRECT.writable(p);
            }

            public String realOrNearest(Path p) {
                return PathReads.DIRECT.realOrNearest(p);
            }
        };
        assertFalse(f.stillHold(sameNodesOtherTarget));
        assertTrue(f.stillHold(PathReads.DIRECT), "control: the real link is unchanged");
    }

    @Test
    void folderReplacedBySymlinkFails() throws Exception {
        PathFacts f = resolved(a.toString());
        Files.move(a, tmp.resolve("a.old"));
        Files.createSymbolicLink(a, b);
        assertFalse(f.stillHold());
    }

    @Test
    void symlinkOwnerChangedFails() throws Exception {
        PathFacts f = resolved(link.toString());
        Files.setAttribute(link, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);
        assertFalse(f.stillHold());
    }

    @Test
    void statOfAPathLstatFoundNotASymlinkAsksNothingMore() {
        RecordedReads reads = new RecordedReads();
        PathReads.Node l = reads.lstat(a);
        assertEquals(l, reads.stat(a));
        assertEquals(1, reads.facts().size());
        reads.stat(link);
        reads.lstat(link);
        assertEquals(3, reads.facts().size(), "a symlink's stat is a question of its own");
        assertTrue(reads.stat(link).directory());
    }
}
