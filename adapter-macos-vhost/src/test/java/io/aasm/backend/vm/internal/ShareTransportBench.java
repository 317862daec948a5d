package io.aasm.backend.vm.internal;

import io.aasm.backend.vm.internal.guest.ShareTransport;
import io.aasm.backend.vm.internal.lower.VmLaunch;
import io.aasm.backend.vm.internal.qemu.QemuHypervisor;
import io.aasm.backend.vm.internal.qemu.QemuSettings;
import io.aasm.backend.vm.internal.qemu.Spawner;
import io.aasm.backend.vm.internal.runtime.Machine;
import io.aasm.backend.vm.internal.runtime.VmSettings;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Not a test (surefire skips *Bench): 9p (restored template) against virtiofs (cold boot, virtiofsd per share),
 * paired and alternated (ABBA) inside one run, with the load average beside every pair. Arms: a launch of
 * /bin/true; a read-heavy launch (2,000 files of 1 KiB and one 64 MiB file read through a read-only share); and
 * a cold boot (9p: a template made in a fresh state folder, boot to hello; virtiofs: boot to hello).
 * Run: {@code mvn -pl adapter-macos-vhost exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=io.aasm.backend.vm.internal.ShareTransportBench -Dexec.args=5}.
 */
public final class ShareTransportBench {
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        QemuSettings base = Guests.settings("tcg");
        QemuVmBackend nineP = new QemuVmBackend(base);
        QemuVmBackend virtiofs = new QemuVmBackend(base.withShares(ShareTransport.VIRTIOFS));
        Path dir = Files.createTempDirectory("vm-share-bench");
        Path data = Files.createDirectories(dir.resolve("data/small"));
        Random r = new Random(1);
        for (int i = 0; i < 2000; i++) {
            byte[] b = new byte[1024];
            r.nextBytes(b);
            Files.write(data.resolve("f" + i), b);
        }
        byte[] big = new byte[64 << 20];
        r.nextBytes(big);
        Files.write(dir.resolve("data/big"), big);
        Path out = Files.createDirectories(dir.resolve("out"));
        String read = "cat " + data + "/* > /dev/null && cat " + dir.resolve("data/big") + " > /dev/null";
        launch(nineP, "/bin/true", out, dir); // the template, once
        launch(virtiofs, "/bin/true", out, dir);
        for (int i = 0; i < n; i++) {
            boolean nineFirst = i % 2 == 0;
            for (String arm : List.of("true", "read")) {
                String action = arm.equals("true") ? "/bin/true" : read;
                long a = launch(nineFirst ? nineP : virtiofs, action, out, dir);
                long b = launch(nineFirst ? virtiofs : nineP, action, out, dir);
                System.out.printf("pair %d %s: 9p %d ms, virtiofs %d ms, load %s%n", i, arm, nineFirst ? a : b,
                        nineFirst ? b : a, load());
            }
            long cold9p = cold9p(base, dir.resolve("state-" + i));
            long coldVfs = coldVirtiofs(base.withShares(ShareTransport.VIRTIOFS));
            System.out.printf("pair %d cold: 9p template boot to hello %d ms, virtiofs boot to hello %d ms, load %s%n",
                    i, cold9p, coldVfs, load());
        }
        System.exit(0);
    }

    private static long launch(QemuVmBackend b, String action, Path out, Path dir) throws Exception {
        long t0 = System.nanoTime();
        ExitDisposition d = b.runDirect(new ExecutionSpec("/bin/sh", List.of("-c", action), out.toString(),
                IdentityRef.anonymous(), List.of(Guests.read(dir.resolve("data").toString()), Guests.write(out.toString())),
                Map.of(), CredentialPosture.none(), new Stdio.Inherit()));
        if (!d.equals(new ExitDisposition.Exited(0))) {
            throw new IllegalStateException(action + " ended " + d);
        }
        return (System.nanoTime() - t0) / 1_000_000L;
    }

    /** A template made from nothing in a fresh state folder: its cold boot to hello, as the template records it. */
    private static long cold9p(QemuSettings base, Path state) throws Exception {
        VmSettings v = base.vm();
        QemuSettings s = new QemuSettings(new VmSettings(state, state.resolve("probes"), v.scratchDir(), v.memoryMib(),
                v.vcpus(), v.slots(), v.bootMillis(), v.answerMillis(), v.uid(), v.gid()), base.qemu(),
                base.accelerator(), base.imageDir(), base.bootDir(), base.modulesDir(), base.setpriv());
        ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
        try (Spawner spawner = new Spawner(s.setpriv(), v.uid() == 0)) {
            return new QemuHypervisor(s, spawner, timers).facts().coldBootMillis();
        } finally {
            timers.shutdownNow();
            io.aasm.backend.vm.internal.qemu.Templates.deleteTree(state); // its RAM file is the VM's size
        }
    }

    /** A virtiofs guest with one read-only share, from spawning its daemon to the agent's hello. */
    private static long coldVirtiofs(QemuSettings s) throws Exception {
        ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
        try (Spawner spawner = new Spawner(s.setpriv(), s.vm().uid() == 0);
             Machine m = new QemuHypervisor(s, spawner, timers).start(List.of(new VmLaunch.ShareSlot(0, "/usr",
                     true)))) {
            return m.startMillis();
        } finally {
            timers.shutdownNow();
        }
    }

    private static String load() throws java.io.IOException {
        String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
        return f[0] + " " + f[1] + " " + f[2];
    }
}
