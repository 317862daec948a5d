package io.aasm.backend.vm.internal.qemu;

import io.aasm.backend.vm.internal.guest.ShareTransport;
import io.aasm.backend.vm.internal.image.FileDigests;
import io.aasm.backend.vm.internal.image.GuestImage;
import io.aasm.backend.vm.internal.image.ImageBuilder;
import io.aasm.backend.vm.internal.image.KernelSource;
import io.aasm.backend.vm.internal.lower.VmLaunch;
import io.aasm.backend.vm.internal.runtime.GuestFacts;
import io.aasm.backend.vm.internal.runtime.Hypervisor;
import io.aasm.backend.vm.internal.runtime.Machine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Guests under QEMU on Linux: the image assembled from this host's Debian kernel package (once, into the
 * state folder, unless a prebuilt one is configured), a template booted and saved once per image and shape,
 * and every launch a copy-on-write restore of it with the launch's own share folders. Everything is found
 * lazily, so activating the backend starts nothing.
 */
public final class QemuHypervisor implements Hypervisor {
    private final QemuSettings settings;
    private final Spawner spawner;
    private final ScheduledExecutorService timers;
    private final Accelerators accelerators;
    private volatile Ready ready;
    private volatile String problem;

    /** What a launch needs, found once. */
    private record Ready(QemuBinary qemu, GuestImage image, Templates templates, RunDirs runs) {
    }

    public QemuHypervisor(QemuSettings settings, Spawner spawner, ScheduledExecutorService timers) {
        this.settings = settings;
        this.spawner = spawner;
        this.timers = timers;
        this.accelerators = new Accelerators(settings.accelerator(), settings.vm().stateDir());
    }

    private Optional<Ready> ready() {
        if (ready != null || problem != null) {
            return Optional.ofNullable(ready);
        }
        synchronized (this) {
            if (ready == null && problem == null) {
                StringBuilder why = new StringBuilder();
                ready = find(why);
                problem = ready == null ? why.toString() : null;
            }
            return Optional.ofNullable(ready);
        }
    }

    private Ready find(StringBuilder why) {
        if (!Files.isExecutable(settings.setpriv())) {
            why.append(settings.setpriv()).append(" is missing (apt-get install util-linux): QEMU is started under it");
            return null;
        }
        if (settings.shares() == ShareTransport.VIRTIOFS) {
            Optional<String> no = Virtiofsd.unavailable(settings.vm().uid() == 0);
            if (no.isPresent()) {
                why.append(no.get());
                return null;
            }
        }
        Optional<QemuBinary> qemu = QemuBinary.find(settings.qemu(), System.getenv("PATH"), digests(), why);
        if (qemu.isEmpty()) {
            return null;
        }
        try {
            Optional<GuestImage> image = image(why);
            if (image.isEmpty()) {
                return null;
            }
            RunDirs runs = new RunDirs(settings.vm().stateDir());
            return new Ready(qemu.get(), image.get(), new Templates(settings.vm().stateDir().resolve("templates"),
                    qemu.get(), spawner, runs, timers, settings.vm().bootMillis()), runs);
        } catch (IOException e) {
            why.append("the guest image could not be assembled: ").append(e.getMessage());
            return null;
        }
    }

    private Optional<GuestImage> image(StringBuilder why) throws IOException {
        if (settings.imageDir().isPresent()) {
            Optional<GuestImage> img = GuestImage.load(settings.imageDir().get());
            if (img.isEmpty()) {
                why.append("no guest image in ").append(settings.imageDir().get());
            }
            return img;
        }
        Optional<KernelSource> k = KernelSource.find(settings.bootDir(), settings.modulesDir(),
                Path.of("/var/lib/dpkg/status"), why);
        if (k.isEmpty()) {
            return Optional.empty();
        }
        Path agent = BundledAgent.extract(settings.vm().stateDir());
        String name = k.get().release() + "-" + agent.getParent().getFileName().toString().substring(0, 16);
        return Optional.of(ImageBuilder.build(k.get(), agent, settings.vm().stateDir().resolve("images").resolve(name),
                digests()));
    }

    private FileDigests digests() {
        return new FileDigests(Optional.of(settings.vm().stateDir().resolve("digests")));
    }

    @Override
    public Optional<String> unavailable() {
        return ready().isPresent() ? Optional.empty() : Optional.of(problem);
    }

    private Template template() throws IOException {
        Ready r = ready().orElseThrow(() -> new IOException(problem));
        return accelerators.template(r.templates(), r.image(), new Shape(Shape.Accel.TCG, settings.vm().memoryMib(),
                settings.vm().vcpus(), settings.vm().slots()));
    }

    @Override
    public GuestFacts facts() throws IOException {
        Template t = template();
        return new GuestFacts(t.hello().kernel(), t.hello().landlockAbi(), t.hello().cgroup(), t.bootMillis(),
                ready.image().digest());
    }

    @Override
    public Machine start(List<VmLaunch.ShareSlot> shares) throws IOException {
        Template t = template();
        Ready r = ready;
        if (settings.shares() == ShareTransport.VIRTIOFS) {
            return VirtiofsBoot.start(r.qemu(), r.image(), t.shape(), shares, spawner, r.runs(), timers,
                    settings.vm().bootMillis());
        }
        List<QemuArgs.Slot> slots = new ArrayList<>();
        for (int i = 0; i < t.shape().slots(); i++) {
            slots.add(new QemuArgs.Slot(r.runs().emptyDir(), true));
        }
        for (VmLaunch.ShareSlot s : shares) {
            slots.set(s.slot(), new QemuArgs.Slot(Path.of(s.hostPath()), s.readOnly()));
        }
        RunDirs.Run run = r.runs().create();
        long t0 = System.nanoTime();
        try {
            QemuMachine m = QemuMachine.restore(r.qemu(), r.image(), t, slots, spawner, run.dir(),
                    settings.vm().bootMillis());
            return new QemuGuest(m, ShareTransport.NINE_P, List.of(), run, (System.nanoTime() - t0) / 1_000_000L);
        } catch (IOException | RuntimeException e) {
            run.close();
            throw e;
        }
    }

    @Override
    public String describe() {
        Optional<Ready> r = ready();
        if (r.isEmpty()) {
            return "QEMU (unavailable: " + problem + ")";
        }
        Optional<Template> t = accelerators.known(r.get().templates(), r.get().image(), new Shape(Shape.Accel.TCG,
                settings.vm().memoryMib(), settings.vm().vcpus(), settings.vm().slots()));
        return r.get().qemu().version() + ", " + r.get().qemu().machine() + ", " + t.map(x -> x.shape().describe()
                + ", guest kernel " + x.hello().kernel() + ", restored from a template (its cold boot took "
                + x.bootMillis() + " ms)").orElse("no template yet") + (settings.shares() == ShareTransport.VIRTIOFS
                ? "; virtiofs shares, a cold boot per launch" : "; 9p shares") + "; image " + r.get().image().digest()
                .substring(0, 16);
    }

    @Override
    public Map<String, String> probeKey() {
        Ready r = ready().orElseThrow(() -> new IllegalStateException(problem));
        Map<String, String> key = new LinkedHashMap<>();
        key.put("qemu_sha256", r.qemu().sha256());
        key.put("qemu_version", r.qemu().version());
        key.put("kernel_sha256", r.image().kernelSha256());
        key.put("initramfs_sha256", r.image().initramfsSha256());
        key.put("agent_sha256", r.image().agentSha256());
        key.put("cmdline", r.image().cmdline());
        key.put("shape", settings.vm().memoryMib() + " MiB, " + settings.vm().vcpus() + " vCPU, "
                + settings.vm().slots() + " slots");
        key.put("accelerator", accelerators.mode());
        key.put("shares", settings.shares().label);
        return key;
    }

    @Override
    public Optional<String> sha256() {
        return ready().map(r -> r.image().agentSha256());
    }
}
