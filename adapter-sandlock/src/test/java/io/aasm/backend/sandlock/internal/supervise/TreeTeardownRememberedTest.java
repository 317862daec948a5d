package io.aasm.backend.sandlock.internal.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.sandlock.internal.harden.AuthorityDrop;
import io.aasm.ports.capability.PrerequisiteStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The teardown self-check through the real guard, remembered per boot: a second process of the same boot reuses
 * the observation (and says so), another boot checks again, and a launch that relies on the teardown has it
 * checked in its own process whatever is remembered. "Process" is one {@link TreeTeardown}, as one activation
 * builds one; a boot is the boot id the cache reads (a stand-in {@code /proc} for the cache only: the check
 * itself reads the real one).
 */
class TreeTeardownRememberedTest {
    @TempDir
    Path dir;

    private ScheduledExecutorService timers;
    private Runs runs;

    @BeforeEach
    void guard() {
        timers = Executors.newSingleThreadScheduledExecutor();
        LaunchIds ids = new LaunchIds(new ProcessTable(Path.of("/proc")));
        runs = Runs.embedded(dir.resolve("guard-cache"), new Runs.Places(ids, new Cgroups(Path.of("/sys"),
                Path.of("/proc"), ids), new SandlockState(Path.of("/dev/shm"), ids)), timers, 2000,
                AuthorityDrop.forThisProcess(Path.of("/proc")));
        assertTrue(runs.unavailable().isEmpty(), "this module's build carries the guard: " + runs.unavailable());
    }

    @AfterEach
    void stop() {
        timers.shutdownNow();
    }

    private Path boot(String id) throws Exception {
        Path p = dir.resolve("proc-" + id);
        Files.createDirectories(p.resolve("sys/kernel/random"));
        Files.writeString(p.resolve("sys/kernel/random/boot_id"), id + "\n");
        Files.writeString(p.resolve("sys/kernel/osrelease"), Files.readString(Path.of("/proc/sys/kernel/osrelease")));
        return p;
    }

    private TreeTeardown process(Path bootProc) {
        return new TreeTeardown(runs, Path.of("/proc"), Optional.of(new TeardownCheckCache(dir.resolve("cache"),
                bootProc)));
    }

    private List<Path> entries() throws Exception {
        try (Stream<Path> s = Files.list(dir.resolve("cache"))) {
            return s.filter(p -> p.getFileName().toString().startsWith("sandlock-teardown-")).sorted().toList();
        }
    }

    @Test
    void theSameBootReusesTheObservationAndAnotherBootChecksAgain() throws Exception {
        Path boot1 = boot("boot-1");
        TreeTeardown first = process(boot1);
        PrerequisiteStatus observed = first.selfCheck();
        assertInstanceOf(PrerequisiteStatus.Satisfied.class, observed, "the real guard kills a setsid descendant");
        assertTrue(first.checkedHere());
        List<Path> afterFirst = entries();
        assertEquals(1, afterFirst.size());
        String entry = Files.readString(afterFirst.get(0));

        TreeTeardown sameBoot = process(boot1);
        PrerequisiteStatus remembered = sameBoot.selfCheck();
        assertFalse(sameBoot.checkedHere(), "same boot, guard, cgroup and authority: no guard started");
        assertInstanceOf(PrerequisiteStatus.Satisfied.class, remembered);
        assertTrue(((PrerequisiteStatus.Satisfied) remembered).observation().contains("remembered per boot"),
                "a remembered verdict says it is one: " + remembered);
        assertEquals(entry, Files.readString(afterFirst.get(0)), "and nothing was observed again");

        TreeTeardown otherBoot = process(boot("boot-2"));
        assertInstanceOf(PrerequisiteStatus.Satisfied.class, otherBoot.selfCheck());
        assertTrue(otherBoot.checkedHere(), "a reboot (another boot id) checks again");
        assertEquals(2, entries().size());
    }

    @Test
    void aLaunchThatReliesOnTheTeardownHasItCheckedInItsOwnProcess() throws Exception {
        Path boot1 = boot("boot-1");
        process(boot1).selfCheck();
        TreeTeardown later = process(boot1);
        later.selfCheck();
        assertFalse(later.checkedHere(), "control: the capabilities alone rest on the remembered verdict");
        PrerequisiteStatus forLaunch = later.forLaunch().selfCheck();
        assertTrue(later.checkedHere(), "a wall-clock launch's plan runs the check here");
        assertInstanceOf(PrerequisiteStatus.Satisfied.class, forLaunch);
        assertFalse(((PrerequisiteStatus.Satisfied) forLaunch).observation().contains("remembered"), forLaunch.toString());
        assertFalse(later.selfCheck().toString().contains("remembered"), "from then on this process's own observation");
    }
}
