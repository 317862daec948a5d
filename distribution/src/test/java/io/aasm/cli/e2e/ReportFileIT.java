package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --report-file} cannot be redirected and is never left half written (issue 11, item 4; issue
 * 13). The path's directory is opened when aasm starts; the report is written to a fresh file in that
 * directory and renamed over the name. Run cold here and through a resident kernel in
 * {@link ReportFileResidentIT} (there the kernel writes the report).
 */
class ReportFileIT {

    /**
     * The confined program replaces its own report path with a symlink to a file outside its grants; aasm
     * replaces the link with the report and never writes through it. Control: without the link, the same
     * run writes the report at the path.
     */
    @Test
    void aReportPathSwappedForASymlinkIsReplacedNeverFollowed(@TempDir Path dir) throws Exception {
        Path victim = SocketAttacker.outsideEveryGrant("report-victim-").resolve("victim");
        byte[] original = "a file of the suite's own, outside every grant\n".getBytes(StandardCharsets.UTF_8);
        Files.write(victim, original);
        for (boolean plant : List.of(true, false)) {
            Path report = dir.resolve("report-" + plant + ".txt");
            Aasm.Result r = Aasm.run(Aasm.DIST, dir, Map.of(), "run", "exec", "--isolation", "process",
                    "--isolation-backend", "aasm-native", "--report-file", report.toString(), "--",
                    "/bin/sh", "-c", plant ? "ln -s " + victim + " " + report : "true");
            assertEquals(0, r.exit(), r.toString());
            assertTrue(r.err().contains("aasm: posture=READY backend=aasm-native"), r.toString());
            assertArrayEquals(original, Files.readAllBytes(victim), "the report was written through the link\n" + r);
            assertFalse(Files.isSymbolicLink(report), r.toString());
            assertTrue(Files.readString(report).contains("post_run"), r.toString());
        }
    }

    /**
     * A report path naming a device or FIFO is refused before anything runs and left as it is: replacing the name
     * swapped a regular file in for it (as root, {@code --report-file /dev/null} turned the host's /dev/null into
     * one). A FIFO stands for the device (making a device needs root). Control: a regular file at the same kind of
     * path gets the report.
     */
    @Test
    void aReportPathThatIsAFifoIsRefusedBeforeLaunchAndLeftAsItIs(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("report.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor());
        Path ran = dir.resolve("ran");
        Aasm.Result r = Aasm.run(Aasm.DIST, dir, Map.of(), "run", "exec", "--isolation", "none", "--report-file",
                fifo.toString(), "--", "/bin/sh", "-c", "echo ran > " + ran);
        assertEquals(125, r.exit(), r.toString());
        assertTrue(r.err().contains("is a device, FIFO or socket, not a file aasm may replace"), r.toString());
        assertTrue(r.err().contains("nothing was launched"), r.toString());
        assertFalse(Files.exists(ran), "the program ran\n" + r);
        assertTrue(Files.readAttributes(fifo, java.nio.file.attribute.BasicFileAttributes.class,
                java.nio.file.LinkOption.NOFOLLOW_LINKS).isOther(), "the FIFO was replaced\n" + r);

        Path plain = Files.writeString(dir.resolve("report.txt"), "old\n");
        Aasm.Result control = Aasm.run(Aasm.DIST, dir, Map.of(), "run", "exec", "--isolation", "none",
                "--report-file", plain.toString(), "--", "/bin/sh", "-c", "echo ran > " + ran);
        assertEquals(0, control.exit(), control.toString());
        assertTrue(Files.exists(ran), control.toString());
        assertTrue(Files.readString(plain).contains("post_run"), control.toString());
    }

    /** The program swaps its report's directory for a symlink to another folder: the report still lands in
     * the directory the user named (now under its new name), never in the link's target. */
    @Test
    void aReportDirectorySwappedForASymlinkDoesNotRedirectTheReport(@TempDir Path dir) throws Exception {
        Path reports = Files.createDirectory(dir.resolve("reports"));
        Path elsewhere = SocketAttacker.outsideEveryGrant("report-elsewhere-");
        Aasm.Result r = Aasm.run(Aasm.DIST, dir, Map.of(), "run", "exec", "--isolation", "process",
                "--isolation-backend", "aasm-native", "--report-file", reports.resolve("r.txt").toString(), "--",
                "/bin/sh", "-c", "mv " + reports + " " + dir.resolve("moved") + " && ln -s " + elsewhere + " " + reports);
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.err().contains("aasm: posture=READY backend=aasm-native"), r.toString());
        assertEquals(List.of(), ResidentEscapeIT.list(elsewhere), "the report followed the link\n" + r);
        assertTrue(Files.readString(dir.resolve("moved/r.txt")).contains("post_run"), r.toString());
    }

    /**
     * A report that does not fit (a full 16 KiB tmpfs) leaves the previous file as it was and no partial
     * one, says so, and the exit status is not 0: 74 when the program succeeded, the program's own
     * status when it failed, 125 when nothing ran (dry run).
     */
    @Test
    void aReportThatCannotBeWrittenLeavesNoPartialFileAndANonZeroExit(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue("0".equals(new String(new ProcessBuilder("id", "-u").start().getInputStream()
                .readAllBytes()).strip()), "environment cannot host this check: mounting a small tmpfs needs root");
        Path small = Files.createDirectory(dir.resolve("small"));
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", small.toString())
                .redirectErrorStream(true).start();
        String mountOut = new String(mount.getInputStream().readAllBytes());
        Assumptions.assumeTrue(mount.waitFor() == 0, "environment cannot host this check: mount failed: " + mountOut);
        try {
            Path report = Files.writeString(small.resolve("report.txt"), "the previous report\n");
            try (var out = Files.newOutputStream(small.resolve("fill"))) {
                byte[] block = new byte[1024];
                for (;;) {
                    out.write(block);
                    out.flush();
                }
            } catch (java.io.IOException full) {
                // the filesystem is full now
            }
            record Case(List<String> flags, String script, int status) {
            }
            for (Case c : List.of(new Case(List.of(), "exit 0", 74), new Case(List.of(), "exit 3", 3),
                    new Case(List.of("--dry-run"), "exit 0", 125))) {
                List<String> args = new ArrayList<>(List.of("run", "exec", "--isolation", "none", "--report-file",
                        report.toString()));
                args.addAll(c.flags());
                args.addAll(List.of("--", "/bin/sh", "-c", c.script()));
                Aasm.Result r = Aasm.run(Aasm.DIST, dir, Map.of(), args.toArray(new String[0]));
                assertEquals(c.status(), r.exit(), c + "\n" + r);
                assertTrue(r.err().contains("aasm: the report was not written to " + report), c + "\n" + r);
                assertEquals("the previous report\n", Files.readString(report), c + "\n" + r);
                assertEquals(List.of("fill", "report.txt"), ResidentEscapeIT.list(small), c + "\n" + r);
            }
        } finally {
            new ProcessBuilder("umount", small.toString()).inheritIO().start().waitFor();
        }
    }
}
