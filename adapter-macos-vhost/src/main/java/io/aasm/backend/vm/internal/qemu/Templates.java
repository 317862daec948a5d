package io.aasm.backend.vm.internal.qemu;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aasm.backend.vm.internal.guest.GuestSession;
import io.aasm.backend.vm.internal.guest.Hello;
import io.aasm.backend.vm.internal.image.Digests;
import io.aasm.backend.vm.internal.image.GuestImage;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Templates on disk, one per (QEMU, image, shape, command-line version): {@code <root>/<key>/} holds the RAM
 * file, the state file and template.json. Made once, under a file lock (two JVMs never boot the same
 * template twice, and never read one half written: it is built beside its place and renamed in).
 */
public final class Templates {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path root;
    private final QemuBinary qemu;
    private final Spawner spawner;
    private final RunDirs runs;
    private final ScheduledExecutorService timers;
    private final long bootMillis;

    public Templates(Path root, QemuBinary qemu, Spawner spawner, RunDirs runs, ScheduledExecutorService timers,
                     long bootMillis) {
        this.root = root;
        this.qemu = qemu;
        this.spawner = spawner;
        this.runs = runs;
        this.timers = timers;
        this.bootMillis = bootMillis;
    }

    String key(GuestImage image, Shape shape) {
        return Digests.sha256((qemu.identity() + "\0" + image.digest() + "\0" + shape + "\0" + QemuArgs.VERSION + "\0"
                + io.aasm.backend.vm.internal.guest.FrameType.VERSION).getBytes(StandardCharsets.UTF_8)).substring(0, 24);
    }

    /** The saved template, if there is one. */
    public Optional<Template> existing(GuestImage image, Shape shape) {
        return load(root.resolve(key(image, shape)), shape);
    }

    /** The template for this image and shape, booting and saving it first when there is none. */
    public Template ensure(GuestImage image, Shape shape) throws IOException {
        return ensure(image, shape, bootMillis);
    }

    /** As {@link #ensure(GuestImage, Shape)}, the cold boot given at most {@code boot} ms to say hello. */
    public Template ensure(GuestImage image, Shape shape, long boot) throws IOException {
        String key = key(image, shape);
        Path dir = root.resolve(key);
        Optional<Template> t = load(dir, shape);
        if (t.isPresent()) {
            return t.get();
        }
        Files.createDirectories(root);
        try (FileChannel lockFile = FileChannel.open(root.resolve(key + ".lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock lock = lockFile.lock()) {
            t = load(dir, shape);
            return t.isPresent() ? t.get() : create(key, dir, image, shape, boot);
        }
    }

    private Template create(String key, Path dir, GuestImage image, Shape shape, long boot) throws IOException {
        Path tmp = Files.createTempDirectory(root, key + ".tmp-");
        try (RunDirs.Run run = runs.create()) {
            List<QemuArgs.Slot> empty = new ArrayList<>();
            for (int i = 0; i < shape.slots(); i++) {
                empty.add(new QemuArgs.Slot(runs.emptyDir(), true));
            }
            long t0 = System.nanoTime();
            Hello hello;
            try (QemuMachine m = QemuMachine.boot(qemu, image, shape, tmp.resolve("ram"), empty, spawner, run.dir(),
                    boot)) {
                ScheduledFuture<?> watchdog = timers.schedule(() -> m.process().destroyForcibly(), boot,
                        TimeUnit.MILLISECONDS);
                try {
                    hello = new GuestSession(m.channel()).hello();
                } catch (IOException e) {
                    throw new IOException("the guest did not come up within " + boot + " ms (" + shape.describe()
                            + "): " + e.getMessage() + m.log(), e);
                } finally {
                    watchdog.cancel(false);
                }
                long booted = (System.nanoTime() - t0) / 1_000_000L;
                Optional<String> bad = hello.unusable();
                if (bad.isPresent()) {
                    throw new IOException(bad.get());
                }
                save(m, tmp.resolve("state"));
                m.close();
                Files.write(tmp.resolve("template.json"), JSON.writerWithDefaultPrettyPrinter()
                        .writeValueAsBytes(describe(image, shape, hello, booted)));
            }
            Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
            return load(dir, shape).orElseThrow(() -> new IOException("the template just saved did not load"));
        } finally {
            deleteTree(tmp);
        }
    }

    /** The guest is stopped first: its RAM in the template file and its device state then agree exactly. */
    private void save(QemuMachine m, Path state) throws IOException {
        try {
            m.qmp().execute("stop", Map.of());
            m.qmp().capability("x-ignore-shared", true);
            m.qmp().execute("migrate", Map.of("uri", "exec:cat > '" + state.toString().replace("'", "'\\''") + "'"));
            m.qmp().awaitMigration(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while saving the template");
        }
    }

    private Map<String, Object> describe(GuestImage image, Shape shape, Hello hello, long booted) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", "aasm.vm.template/1");
        m.put("qemu", qemu.version());
        m.put("machine", qemu.machine());
        m.put("image", image.digest());
        m.put("accel", shape.accel().token);
        m.put("memory_mib", shape.memoryMib());
        m.put("vcpus", shape.vcpus());
        m.put("slots", shape.slots());
        m.put("boot_ms", booted);
        m.put("guest_kernel", hello.kernel());
        m.put("guest_landlock_abi", hello.landlockAbi());
        m.put("guest_cgroup", hello.cgroup());
        m.put("guest_init_ms", hello.initMillis());
        m.put("guest_port_ms", hello.portMillis());
        return m;
    }

    private static Optional<Template> load(Path dir, Shape shape) {
        try {
            JsonNode j = JSON.readTree(dir.resolve("template.json").toFile());
            if (!Files.isRegularFile(dir.resolve("ram")) || !Files.isRegularFile(dir.resolve("state"))) {
                return Optional.empty();
            }
            Hello h = new Hello(io.aasm.backend.vm.internal.guest.FrameType.VERSION, j.path("guest_kernel").asText(),
                    j.path("guest_landlock_abi").asInt(-1), j.path("guest_cgroup").asBoolean(),
                    j.path("guest_init_ms").asLong(), j.path("guest_port_ms").asLong(), "");
            return Optional.of(new Template(dir.getFileName().toString(), dir, dir.resolve("ram"), dir.resolve("state"),
                    shape, h, j.path("boot_ms").asLong()));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    public static void deleteTree(Path p) {
        if (p == null || !Files.exists(p)) {
            return;
        }
        try (var walk = Files.walk(p)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
        } catch (IOException e) {
            // a leftover folder in the cache
        }
    }
}
