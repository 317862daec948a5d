package io.aasm.backend.vm.internal.vz;

import io.aasm.backend.vm.internal.guest.GuestSession;
import io.aasm.backend.vm.internal.guest.Hello;
import io.aasm.backend.vm.internal.guest.ShareTransport;
import io.aasm.backend.vm.internal.image.GuestImage;
import io.aasm.backend.vm.internal.lower.VmLaunch;
import io.aasm.backend.vm.internal.qemu.RunDirs;
import io.aasm.backend.vm.internal.runtime.GuestFacts;
import io.aasm.backend.vm.internal.runtime.Hypervisor;
import io.aasm.backend.vm.internal.runtime.Machine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Guests under Virtualization.framework, through the signed {@code aasm-vz} helper (contract 1): every launch
 * spawns the helper, which cold-boots the image with one share per slot and hands the guest's control port to
 * its stdio; the agent's hello arrives before the plan is sent. No template yet (VZ's save/restore is macOS 14+
 * and unverified with virtiofs). Nothing here starts a VM to answer {@link #unavailable()}: the helper's own
 * {@code check} says whether it may.
 */
public final class VzHypervisor implements Hypervisor {
    private final VzSettings settings;
    private final HelperProcesses spawner;
    private final ScheduledExecutorService timers;
    private final HelperCheck check;
    private volatile Hello hello;
    private volatile long coldBootMillis;

    public VzHypervisor(VzSettings settings, ScheduledExecutorService timers) {
        this.settings = settings;
        this.spawner = new HelperProcesses();
        this.timers = timers;
        this.check = new HelperCheck(settings, spawner);
    }

    @Override
    public Optional<String> unavailable() {
        return check.problem();
    }

    private GuestImage image() throws IOException {
        return settings.image().flatMap(GuestImage::load).orElseThrow(() -> new IOException("no guest image"));
    }

    @Override
    public GuestFacts facts() throws IOException {
        if (hello == null) {
            start(List.of()).close(); // one cold boot tells what the guest offers
        }
        return new GuestFacts(hello.kernel(), hello.landlockAbi(), hello.cgroup(), coldBootMillis, image().digest());
    }

    @Override
    public Machine start(List<VmLaunch.ShareSlot> shares) throws IOException {
        Optional<String> why = check.problem(); // the pin hashed again: the file may have changed since the listing
        if (why.isPresent()) {
            throw new IOException(why.get());
        }
        RunDirs runs = new RunDirs(settings.vm().stateDir());
        // exactly the shares the plan names, under the tags it names: a cold boot per launch needs no fixed device
        // list (a template would), and every device costs boot time
        List<HelperContract.Share> slots = new ArrayList<>();
        for (VmLaunch.ShareSlot s : shares) {
            slots.add(new HelperContract.Share(ShareTransport.tag(s.slot()), s.readOnly(), s.hostPath()));
        }
        byte[] config = HelperContract.config(image(), settings.vm().vcpus(), settings.vm().memoryMib(), slots);
        RunDirs.Run run = runs.create();
        long t0 = System.nanoTime();
        Process p;
        try {
            p = spawner.start(List.of(settings.helper().orElseThrow().toString(), "run"), run.dir().resolve("helper.log"));
        } catch (IOException e) {
            run.close();
            throw e;
        }
        HelperMachine m = new HelperMachine(p, run);
        ScheduledFuture<?> watchdog = timers.schedule(p::destroyForcibly, settings.vm().bootMillis(),
                TimeUnit.MILLISECONDS);
        try {
            p.getOutputStream().write(config);
            p.getOutputStream().flush();
            Hello h = new GuestSession(m.channel()).hello();
            Optional<String> bad = h.unusable();
            if (bad.isPresent()) {
                throw new IOException(bad.get());
            }
            long took = (System.nanoTime() - t0) / 1_000_000L;
            m.started(took);
            if (hello == null) {
                coldBootMillis = took;
                hello = h;
            }
            return m;
        } catch (IOException | RuntimeException e) {
            boolean late = !watchdog.cancel(false); // the watchdog already killed it: the boot took too long
            int exit = m.exitWithin(2000);
            String log = m.log();
            m.close();
            if (exit == HelperContract.EXIT_NO_ENTITLEMENT) {
                check.refuse(HelperContract.meaning(exit) + log);
            }
            String what = late ? "the guest did not say hello within " + settings.vm().bootMillis() + " ms"
                    : exit >= 0 ? HelperContract.meaning(exit) + " before the guest said hello" : e.getMessage();
            throw new IOException(what + log, e);
        } finally {
            watchdog.cancel(false);
        }
    }

    @Override
    public String describe() {
        return "Virtualization.framework through aasm-vz " + settings.helper().map(Object::toString).orElse("(none)")
                + " (contract " + HelperContract.VERSION + ", sha256 " + settings.helperSha256().map(x -> x.substring(0,
                Math.min(16, x.length()))).orElse("-") + "), "
                + settings.vm().memoryMib() + " MiB, " + settings.vm().vcpus() + " vCPU, cold boot per launch"
                + (hello == null ? "" : ", guest kernel " + hello.kernel() + " (first cold boot " + coldBootMillis + " ms)");
    }

    @Override
    public Map<String, String> probeKey() {
        GuestImage img = settings.image().flatMap(GuestImage::load).orElseThrow(() -> new IllegalStateException(
                "no guest image"));
        Map<String, String> key = new LinkedHashMap<>();
        key.put("helper_sha256", settings.helperSha256().orElseThrow());
        key.put("helper_contract", Integer.toString(HelperContract.VERSION));
        key.put("kernel_sha256", img.kernelSha256());
        key.put("initramfs_sha256", img.initramfsSha256());
        key.put("agent_sha256", img.agentSha256());
        key.put("cmdline", img.cmdline());
        key.put("shape", settings.vm().memoryMib() + " MiB, " + settings.vm().vcpus() + " vCPU, "
                + settings.vm().slots() + " slots");
        return key;
    }

    @Override
    public Optional<String> sha256() {
        return settings.image().flatMap(GuestImage::load).map(GuestImage::agentSha256);
    }

    /** Stops the spawner thread (the backend's deactivation). */
    public void close() {
        spawner.close();
    }
}
