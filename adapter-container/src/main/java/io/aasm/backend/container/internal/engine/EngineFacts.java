package io.aasm.backend.container.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the engine says about itself ({@code /_ping}, {@code /version}, {@code /info}), read once per
 * backend start: its identity for reports and the probe cache key, and the features the hardened
 * container depends on. The engine's word is a prerequisite only: every domain's claim still needs a
 * denial observed by a probe pair in a container on this host.
 */
public record EngineFacts(String server, String version, ApiVersion api, String engineId, String os,
                          String kernelVersion, String storageDriver, String cgroupDriver, String cgroupVersion,
                          List<String> securityOptions, boolean memoryLimit, boolean swapLimit, boolean pidsLimit,
                          Optional<Path> dataRoot, String initBinary) {

    public EngineFacts {
        securityOptions = List.copyOf(securityOptions);
    }

    public static EngineFacts read(Engine engine) throws IOException {
        JsonNode v = engine.versionInfo();
        JsonNode i = engine.info();
        List<String> sec = new ArrayList<>();
        i.path("SecurityOptions").forEach(n -> sec.add(n.asText()));
        String root = i.path("DockerRootDir").asText("");
        return new EngineFacts(engine.server(), v.path("Version").asText("unknown"), engine.version(),
                i.path("ID").asText(""), i.path("OSType").asText(v.path("Os").asText("")),
                i.path("KernelVersion").asText(""), i.path("Driver").asText(""), i.path("CgroupDriver").asText(""),
                i.path("CgroupVersion").asText(""), sec, i.path("MemoryLimit").asBoolean(false),
                i.path("SwapLimit").asBoolean(false), i.path("PidsLimit").asBoolean(false),
                root.startsWith("/") ? Optional.of(Path.of(root)) : Optional.empty(), i.path("InitBinary").asText(""));
    }

    /** The engine applies seccomp profiles to containers. */
    public boolean seccomp() {
        return securityOptions.stream().anyMatch(s -> s.startsWith("name=seccomp"));
    }

    /** A rootless engine: its "root" is a user namespace of the invoking user. */
    public boolean rootless() {
        return securityOptions.stream().anyMatch(s -> s.startsWith("name=rootless"));
    }

    /** One line for reports and the backend's identity. */
    public String describe() {
        return server + ", API " + api + (api.compareTo(Engine.TESTED) > 0 ? " (newer than the tested "
                + Engine.TESTED + ")" : "") + ", storage " + storageDriver + ", cgroup " + cgroupVersion + " ("
                + cgroupDriver + ")" + (rootless() ? ", rootless" : "");
    }
}
