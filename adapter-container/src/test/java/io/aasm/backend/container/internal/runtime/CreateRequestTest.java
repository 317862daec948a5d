package io.aasm.backend.container.internal.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aasm.backend.container.internal.lower.ContainerPlan;
import io.aasm.backend.container.internal.lower.Mount;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The hardening every create request carries, whatever the plan, and the plan's own settings. */
class CreateRequestTest {
    private static ContainerPlan plan(boolean init, ContainerPlan.Namespaces ns, ContainerPlan.Limits limits,
                                      List<Mount> mounts) {
        return new ContainerPlan("/bin/sh", List.of("/bin/sh", "-c", "true"), "/w", Map.of("PATH", "/usr/bin"), mounts, ns,
                init, "{\"defaultAction\":\"SCMP_ACT_ERRNO\"}", limits, OptionalLong.empty(), Map.of(), Map.of());
    }

    private static JsonNode build(ContainerPlan p, Optional<Path> dataRoot) throws Exception {
        CreateRequest.Context ctx = new CreateRequest.Context("sha256:abc", false, "1000:1000", "host", Path.of("/s/empty"),
                Path.of("/s/gen"), Path.of("/s/init"), dataRoot, Map.of("io.aasm.backend", "aasm-container"), false,
                Optional.empty());
        return new ObjectMapper().readTree(CreateRequest.build(p, ctx));
    }

    @Test
    void everyContainerIsHardenedWhateverThePlanSays() throws Exception {
        JsonNode c = build(plan(true, new ContainerPlan.Namespaces(false, false, false), ContainerPlan.Limits.none(),
                List.of()), Optional.empty());
        JsonNode h = c.path("HostConfig");
        assertEquals("[\"ALL\"]", h.path("CapDrop").toString());
        assertEquals("no-new-privileges", h.path("SecurityOpt").get(0).asText());
        assertTrue(h.path("SecurityOpt").get(1).asText().startsWith("seccomp={"));
        assertTrue(h.path("ReadonlyRootfs").asBoolean() && h.path("AutoRemove").asBoolean());
        assertFalse(h.path("Privileged").asBoolean());
        assertEquals("none", h.path("NetworkMode").asText());
        assertTrue(c.path("NetworkDisabled").asBoolean());
        assertEquals("private", h.path("IpcMode").asText());
        assertEquals("1000:1000", c.path("User").asText());
        assertEquals("/.aasm-init", c.path("Cmd").get(0).asText(), "aasm's init starts the program");
        assertEquals("--", c.path("Cmd").get(1).asText());
        assertEquals("/bin/sh", c.path("Cmd").get(2).asText());
        assertFalse(h.path("Init").asBoolean(), "the engine's init is never used");
        assertTrue(c.path("OpenStdin").asBoolean() && c.path("StdinOnce").asBoolean());
        assertTrue(h.path("Devices").isMissingNode(), "no device is ever added");
    }

    @Test
    void limitsSwapEqualToMemoryAndRlimitsByTheEnginesNames() throws Exception {
        JsonNode h = build(plan(false, new ContainerPlan.Namespaces(false, true, true), new ContainerPlan.Limits(
                OptionalLong.of(64L << 20), OptionalLong.of(17), Map.of("nofile", 32L)), List.of()), Optional.empty())
                .path("HostConfig");
        assertEquals(64L << 20, h.path("Memory").asLong());
        assertEquals(64L << 20, h.path("MemorySwap").asLong());
        assertEquals(17, h.path("PidsLimit").asLong());
        assertEquals("{\"Name\":\"nofile\",\"Soft\":32,\"Hard\":32}", h.path("Ulimits").get(0).toString());
        assertEquals("host", h.path("PidMode").asText());
        assertEquals("host", h.path("IpcMode").asText());
    }

    @Test
    void mountsBindTheirSourcesMasksTheEmptyFileAndPrivateFoldersATmpfsOfTheUser() throws Exception {
        JsonNode h = build(plan(true, new ContainerPlan.Namespaces(false, false, false), ContainerPlan.Limits.none(),
                List.of(new Mount.Bind("/var/x", "/var/x", true), new Mount.MaskFile("/run/docker.sock"),
                        new Mount.Tmpfs("/tmp", false))), Optional.of(Path.of("/var/lib/docker"))).path("HostConfig");
        JsonNode m = h.path("Mounts");
        assertEquals("/s/init", m.get(0).path("Source").asText());
        assertEquals("/var/x", m.get(1).path("Source").asText());
        assertTrue(m.get(1).path("ReadOnly").asBoolean());
        assertEquals("/s/empty", m.get(2).path("Source").asText());
        assertEquals("/run/docker.sock", m.get(2).path("Target").asText());
        assertTrue(h.path("Tmpfs").path("/tmp").asText().contains("uid=1000,gid=1000"));
    }

    @Test
    void aMediatedPlanWaitsForTheRelayThenStartsTheInitAndBindsNoSocket() throws Exception {
        ContainerPlan mediated = new ContainerPlan("/bin/sh", List.of("/bin/sh", "-c", "true"), "/w",
                Map.of("PATH", "/usr/bin"), List.of(), new ContainerPlan.Namespaces(false, false, false), true,
                "{}", ContainerPlan.Limits.none(), OptionalLong.empty(), Map.of(), Map.of(),
                java.util.OptionalInt.of(3128)).withEnvironment(Map.of("HTTP_PROXY", "http://127.0.0.1:3128"));
        CreateRequest.Context ctx = new CreateRequest.Context("sha256:abc", false, "1000:1000", "host",
                Path.of("/s/empty"), Path.of("/s/gen"), Path.of("/s/init"), Optional.empty(), Map.of(), false,
                Optional.empty(), Optional.of(Path.of("/s/relay")));
        JsonNode c = new ObjectMapper().readTree(CreateRequest.build(mediated, ctx));
        assertEquals(List.of("/.aasm-relay", "wait", "3128", "--", "/.aasm-init", "--", "/bin/sh", "-c", "true"),
                new ObjectMapper().convertValue(c.path("Cmd"), List.class));
        assertEquals("none", c.path("HostConfig").path("NetworkMode").asText(), "still no engine network");
        JsonNode m = c.path("HostConfig").path("Mounts");
        assertEquals(2, m.size(), "the init and the relay's waiting role, nothing else: " + m);
        assertEquals("/s/relay", m.get(1).path("Source").asText());
        assertEquals("/.aasm-relay", m.get(1).path("Target").asText());
        assertTrue(m.get(1).path("ReadOnly").asBoolean());
        assertTrue(c.path("Env").toString().contains("HTTP_PROXY=http://127.0.0.1:3128"));
        assertEquals(List.of("/bin/sh", "-c", "true"), new ObjectMapper().convertValue(build(plan(true,
                new ContainerPlan.Namespaces(false, false, false), ContainerPlan.Limits.none(), List.of()),
                Optional.empty()).path("Cmd"), List.class).subList(2, 5), "unmediated: no wait");
    }

    /** Processes none: the init only with canary words, and then -x (it becomes the program, no fork). */
    @Test
    void withoutTheInitItRunsInPlaceOnlyForCanaries() throws Exception {
        ContainerPlan noInit = plan(false, new ContainerPlan.Namespaces(false, false, false),
                ContainerPlan.Limits.none(), List.of());
        CreateRequest.Context ctx = new CreateRequest.Context("sha256:abc", false, "1000:1000", "host",
                Path.of("/s/empty"), Path.of("/s/gen"), Path.of("/s/init"), Optional.empty(), Map.of(), false,
                Optional.empty());
        JsonNode c = new ObjectMapper().readTree(CreateRequest.build(noInit, ctx, List.of("canary:nonce=ab",
                "canary:fork")));
        assertEquals(List.of("/.aasm-init", "-x", "canary:nonce=ab", "canary:fork", "--", "/bin/sh", "-c", "true"),
                new ObjectMapper().convertValue(c.path("Cmd"), List.class));
        assertEquals("/.aasm-init", c.path("HostConfig").path("Mounts").get(0).path("Target").asText());
        // control: no canary words, no init at all (the program is the command, as before)
        JsonNode bare = build(noInit, Optional.empty());
        assertEquals(List.of("/bin/sh", "-c", "true"), new ObjectMapper().convertValue(bare.path("Cmd"), List.class));
        assertEquals(0, bare.path("HostConfig").path("Mounts").size());
    }
}
