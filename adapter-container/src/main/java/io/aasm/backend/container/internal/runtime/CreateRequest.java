package io.aasm.backend.container.internal.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aasm.backend.container.internal.lower.ContainerPlan;
import io.aasm.backend.container.internal.lower.Mount;
import java.nio.file.Path;
import java.util.Map;

/**
 * The engine's create request for one plan, with the hardening every launch gets whatever the policy
 * states: every capability dropped, no_new_privileges, the plan's seccomp profile, a read-only root,
 * the caller's user, no privileged mode and no device, the container removed when it ends, labels that
 * name the launch and its owner (so a later start reclaims what a killed supervisor left).
 */
public final class CreateRequest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a launch adds to its plan: the image, the user, where generated files are, labels, the terminal. */
    public record Context(String imageId, boolean pinnedImage, String user, String hostname, Path emptyFile,
                          Path generatedDir, Path init, java.util.Optional<Path> engineDataRoot,
                          Map<String, String> labels, boolean tty, java.util.Optional<int[]> terminalSize,
                          java.util.Optional<Path> relay) {
        /** A context without the transport relay (a launch that is not mediated). */
        public Context(String imageId, boolean pinnedImage, String user, String hostname, Path emptyFile,
                       Path generatedDir, Path init, java.util.Optional<Path> engineDataRoot,
                       Map<String, String> labels, boolean tty, java.util.Optional<int[]> terminalSize) {
            this(imageId, pinnedImage, user, hostname, emptyFile, generatedDir, init, engineDataRoot, labels, tty,
                    terminalSize, java.util.Optional.empty());
        }
    }

    /** Where the init is bound: at the root, beside (never inside) anything a policy can grant. */
    public static final String INIT_PATH = "/.aasm-init";

    /** Where the transport relay's waiting role is bound in a mediated container (RELAY.md), beside the init. */
    public static final String RELAY_PATH = "/.aasm-relay";

    private CreateRequest() {
    }

    public static byte[] build(ContainerPlan plan, Context ctx) {
        return build(plan, ctx, java.util.List.of());
    }

    /**
     * {@code initWords}: the init's canary words, placed before its {@code --}. A plan without the init
     * (processes denied) gets it only to make canaries, with {@code -x}: it then becomes the program by
     * execve in its own process, so the program is still the container's pid 1 and nothing forks.
     */
    public static byte[] build(ContainerPlan plan, Context ctx, java.util.List<String> initWords) {
        boolean inPlace = !plan.init() && !initWords.isEmpty();
        ObjectNode c = JSON.createObjectNode();
        c.put("Image", ctx.imageId());
        ArrayNode cmd = c.putArray("Cmd");
        if (plan.proxyPort().isPresent()) {
            // first wait until the supervisor's relay listens inside (it can enter the namespace only once started)
            cmd.add(RELAY_PATH).add("wait").add(Integer.toString(plan.proxyPort().getAsInt())).add("--");
        }
        if (plan.init() || inPlace) {
            cmd.add(INIT_PATH);
            if (inPlace) {
                cmd.add("-x");
            }
            // the init sizes the container's terminal before the program starts (a resize needs a running container)
            ctx.terminalSize().filter(s -> ctx.tty()).ifPresent(s -> cmd.add("-s").add(s[0] + ":" + s[1]));
            initWords.forEach(cmd::add);
            cmd.add("--");
        }
        plan.argv().forEach(cmd::add);
        if (ctx.pinnedImage()) {
            c.putArray("Entrypoint").add(""); // the program line is the whole command, whatever the image says
        }
        ArrayNode env = c.putArray("Env");
        plan.environment().forEach((k, v) -> env.add(k + "=" + v));
        c.put("User", ctx.user());
        c.put("WorkingDir", plan.workingDirectory());
        c.put("Hostname", ctx.hostname());
        c.put("Tty", ctx.tty());
        c.put("OpenStdin", true);
        c.put("StdinOnce", true);
        c.put("AttachStdin", true);
        c.put("AttachStdout", true);
        c.put("AttachStderr", true);
        c.put("NetworkDisabled", !plan.namespaces().hostNetwork());
        ObjectNode labels = c.putObject("Labels");
        ctx.labels().forEach(labels::put);
        ObjectNode h = c.putObject("HostConfig");
        h.put("NetworkMode", plan.namespaces().hostNetwork() ? "host" : "none");
        h.put("PidMode", plan.namespaces().hostPid() ? "host" : "");
        h.put("IpcMode", plan.namespaces().hostIpc() ? "host" : "private");
        h.put("UTSMode", "");
        h.put("AutoRemove", true);
        h.put("Init", false); // aasm's own init (see INIT_PATH): the engine's sits where a granted /sbin hides it
        h.put("Privileged", false);
        h.put("ReadonlyRootfs", true);
        h.putArray("CapDrop").add("ALL");
        h.putArray("SecurityOpt").add("no-new-privileges").add("seccomp=" + plan.seccompProfile());
        mounts(plan, ctx, h, plan.init() || inPlace);
        plan.limits().memoryBytes().ifPresent(m -> {
            h.put("Memory", m);
            h.put("MemorySwap", m); // swap equal to memory: no swap beyond the ceiling
        });
        plan.limits().pids().ifPresent(p -> h.put("PidsLimit", p));
        if (!plan.limits().ulimits().isEmpty()) {
            ArrayNode u = h.putArray("Ulimits");
            plan.limits().ulimits().forEach((name, v) -> u.addObject().put("Name", name).put("Soft", v).put("Hard", v));
        }
        try {
            return JSON.writeValueAsBytes(c);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void mounts(ContainerPlan plan, Context ctx, ObjectNode h, boolean init) {
        ArrayNode mounts = h.putArray("Mounts");
        ObjectNode tmpfs = h.putObject("Tmpfs");
        if (init) {
            bind(mounts, ctx.init().toString(), INIT_PATH, true, false);
        }
        if (plan.proxyPort().isPresent()) {
            bind(mounts, ctx.relay().orElseThrow(() -> new IllegalArgumentException("a mediated plan needs the relay "
                    + "binary")).toString(), RELAY_PATH, true, false);
        }
        String root = ctx.engineDataRoot().map(Path::toString).orElse("");
        for (Mount m : plan.mounts()) {
            if (m instanceof Mount.Bind b) {
                // the engine insists a bind holding its data root receives mount events (its own mounts) from the host
                boolean holdsRoot = !root.isEmpty() && io.aasm.backend.container.internal.lower.Grant.under(root, b.source());
                bind(mounts, b.source(), b.target(), b.readOnly(), holdsRoot);
            } else if (m instanceof Mount.MaskFile f) {
                bind(mounts, ctx.emptyFile().toString(), f.target(), true, false);
            } else if (m instanceof Mount.Generated g) {
                bind(mounts, ctx.generatedDir().resolve(g.name()).toString(), g.target(), true, false);
            } else if (m instanceof Mount.Tmpfs t) {
                // a private folder: writable and executable like a host folder, owned by the program's user
                String[] ids = ctx.user().split(":");
                tmpfs.put(t.target(), t.readOnly() ? "ro,nosuid,nodev,noexec,size=4k,mode=0555"
                        : "rw,exec,nosuid,nodev,mode=1777,uid=" + ids[0] + ",gid=" + ids[1]);
            }
        }
    }

    private static void bind(ArrayNode mounts, String source, String target, boolean readOnly, boolean slave) {
        ObjectNode m = mounts.addObject();
        m.put("Type", "bind");
        m.put("Source", source);
        m.put("Target", target);
        m.put("ReadOnly", readOnly);
        m.putObject("BindOptions").put("Propagation", slave ? "rslave" : "rprivate");
    }
}
