package io.aasm.cli.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.ops4j.pax.exam.CoreOptions.bundle;
import static org.ops4j.pax.exam.CoreOptions.cleanCaches;
import static org.ops4j.pax.exam.CoreOptions.frameworkProperty;
import static org.ops4j.pax.exam.CoreOptions.junitBundles;
import static org.ops4j.pax.exam.CoreOptions.options;

import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.kernel.BackendStatus;
import io.aasm.ports.kernel.FrameworkProperties;
import io.aasm.ports.kernel.IsolationKernel;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.kernel.LaunchRequest;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.PolicyFormat;
import io.aasm.ports.policy.PolicySource;
import io.aasm.ports.report.CandidateVerdict;
import io.aasm.ports.report.ConsideredBackend;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import javax.inject.Inject;
import org.apache.felix.service.command.CommandProcessor;
import org.apache.felix.service.command.CommandSession;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

/**
 * Boots Felix with the real bundles (third-party jars plus the exploded aasm modules) and proves the
 * wiring, the aasm:* Gogo commands, and hot deploy/undeploy of a backend through FileInstall.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class AasmFrameworkTest {
    static final Path DEPLOY = deployDir();
    static final String EXAMPLE = "example-unconfined";

    @Inject
    BundleContext context;

    @Inject
    IsolationKernel kernel;

    @Inject
    CommandProcessor processor;

    @Configuration
    public Option[] config() throws IOException {
        Files.createDirectories(DEPLOY);
        try (var old = Files.list(DEPLOY)) {
            for (Path p : old.toList()) {
                Files.delete(p);
            }
        }
        List<Option> opts = new ArrayList<>();
        for (String url : Bundles.thirdParty()) {
            opts.add(bundle(url));
        }
        for (String module : List.of("ports", "kernel", "adapter-policy-yaml", "adapter-report-text",
                "adapter-report-json", "distribution")) {
            opts.add(bundle(Bundles.exploded(module)));
        }
        opts.add(frameworkProperty("felix.fileinstall.dir").value(DEPLOY.toString()));
        opts.add(frameworkProperty("felix.fileinstall.poll").value("250"));
        opts.add(frameworkProperty("felix.fileinstall.noInitialDelay").value("true"));
        opts.add(frameworkProperty("gosh.args").value("--nointeractive"));
        opts.add(frameworkProperty(FrameworkProperties.HOME).value(Bundles.ROOT.resolve("distribution/src/dist").toString()));
        opts.add(frameworkProperty(FrameworkProperties.AUTO_WALK).value("sandlock,aasm-native,aasm-container,aasm-qemu-vm,aasm-macos-vm"));
        opts.add(junitBundles());
        opts.add(cleanCaches());
        return options(opts.toArray(new Option[0]));
    }

    @Test
    public void kernelRenderersAndPolicySourceAreWired() throws Exception {
        for (String format : List.of("text", "kv", "json")) {
            assertTrue("renderer " + format, kernel.renderer(format).isPresent());
        }
        assertEquals("one yaml policy source", 1,
                context.getServiceReferences(PolicySource.class, "(" + PolicyFormat.NAME + "=yaml)").size());
        assertEquals(List.of("sandlock", "aasm-native", "aasm-container", "aasm-qemu-vm", "aasm-macos-vm"),
                kernel.autoWalkOrder().subList(0, 5));
    }

    @Test
    public void gogoVersionAndBackendsCommands() throws Exception {
        String version = gogo("aasm:version");
        assertTrue(version, version.startsWith("aasm "));
        String backends = gogo("aasm:backends");
        assertTrue(backends, backends.contains("auto walk order: sandlock, aasm-native, aasm-container, aasm-qemu-vm, aasm-macos-vm"));
        assertEquals("0", gogo("aasm:status").strip());
    }

    @Test
    public void gogoPolicyCheckShowsTheLoweringOrEveryProblem() throws Exception {
        Path good = Bundles.ROOT.resolve("distribution/src/dist/conf/default-policy.yaml");
        String out = gogo("aasm:policy check " + good);
        assertTrue(out, out.contains("valid") && out.contains("filesystem_write")
                && out.contains("paths[$WORKDIR] private[/tmp]"));
        Path bad = Files.createTempFile("bad-policy", ".yaml");
        Files.writeString(bad, "apiVersion: aasm/v1\nkind: Policy\nfilesystem:\n  reed: {allow: [/usr]}\n");
        String err = gogo("aasm:policy check " + bad);
        assertTrue(err, err.contains(bad + ":4:"));
        assertEquals("1", gogo("aasm:status").strip());
    }

    @Test
    public void gogoDryRunPrintsTheSectionsAndExecutesNothing() throws Exception {
        Path marker = Files.createTempDirectory("aasm-dry").resolve("created");
        String out = gogo("aasm:run exec --isolation none --dry-run -- /bin/sh -c 'touch " + marker + "'");
        for (String section : List.of("--- protection ---", "--- execution isolation ---",
                "--- execution isolation (machine-readable) ---", "schema=aasm.isolation.report/1", "posture=no_boundary")) {
            assertTrue(section + " in\n" + out, out.contains(section));
        }
        assertTrue("dry run executed the program", Files.notExists(marker));
        assertEquals("0", gogo("aasm:status").strip());
        String rtrue = gogo("aasm:run exec --isolation none --dry-run -- /bin/true");
        assertTrue(rtrue, rtrue.contains("NO BOUNDARY ESTABLISHED"));
    }

    /** The --report choices are the renderer services in the framework: stopping a bundle takes its formats. */
    @Test
    public void reportChoicesFollowTheRendererBundles() throws Exception {
        assertTrue(oneLine(gogo("aasm:run exec --help")).contains("installed here: json, kv, text (default: text)"));
        Bundle json = Arrays.stream(context.getBundles())
                .filter(b -> "io.aasm.adapter-report-json".equals(b.getSymbolicName())).findFirst().orElseThrow();
        json.stop();
        try {
            assertTrue(oneLine(gogo("aasm:run exec --help")).contains("installed here: text (default: text)"));
            String out = gogo("aasm:run exec --isolation none --report json -- /bin/true");
            assertTrue(out, out.contains("'json' is not an installed report format; installed: text"));
            assertEquals("2", gogo("aasm:status").strip());
        } finally {
            json.start();
        }
        awaitTrue("json and kv back among the choices",
                () -> oneLine(gogoQuietly("aasm:run exec --help")).contains("installed here: json, kv, text"));
    }

    private static String oneLine(String s) {
        return s.replaceAll("\\s+", " ");
    }

    private String gogoQuietly(String command) {
        try {
            return gogo(command);
        } catch (Exception e) {
            return e.toString();
        }
    }

    @Test
    public void hotDeployedBackendJoinsTheAutoWalkAndLeavesOnUndeploy() throws Exception {
        Path staging = Files.createTempDirectory(DEPLOY.getParent(), "staging");
        Path jar = staging.resolve("example-unconfined.jar");
        Bundles.jar("adapter-example-unconfined", jar);
        Path deployed = DEPLOY.resolve("example-unconfined.jar");
        Files.move(jar, deployed, StandardCopyOption.ATOMIC_MOVE);

        awaitTrue("example-unconfined in kernel.backends()", () -> installed().contains(EXAMPLE));
        assertTrue(gogo("aasm:backends").contains("backend: " + EXAMPLE));
        LaunchDecision d = kernel.decide(autoRequest());
        assertTrue("auto must refuse past the example backend: " + d, d instanceof LaunchDecision.Refused);
        ConsideredBackend example = ((LaunchDecision.Refused) d).report().selection().orElseThrow().considered()
                .stream().filter(c -> c.id().equals(EXAMPLE)).findFirst().orElseThrow();
        assertEquals(CandidateVerdict.REJECTED_REQUIREMENTS_UNMET, example.verdict());
        assertTrue(((LaunchDecision.Refused) d).message(), ((LaunchDecision.Refused) d).message().contains(EXAMPLE));

        Files.delete(deployed);
        awaitTrue("example-unconfined gone from kernel.backends()", () -> !installed().contains(EXAMPLE));
        assertTrue(!gogo("aasm:backends").contains("backend: " + EXAMPLE));
    }

    private LaunchRequest autoRequest() {
        return new LaunchRequest(Optional.of(IsolationClass.AUTO), Optional.empty(),
                Optional.of(Bundles.ROOT.resolve("distribution/src/dist/conf/default-policy.yaml").toString()),
                "/bin/true", List.of(), PROJECT, IdentityRef.anonymous(), Map.of("PATH", "/usr/bin:/bin"), new Stdio.Inherit());
    }

    /** The default policy grants writing the working directory: a project folder, never / or a home. */
    private static final String PROJECT = project();

    private static String project() {
        try {
            return Files.createTempDirectory("aasm-project").toString();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private List<String> installed() {
        return kernel.backends().stream().map(BackendStatus::id).toList();
    }

    /** Polls without a time assertion: the deadline only bounds a hang, the check is the condition. */
    private static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("not observed within 60 s: " + what);
            }
            Thread.sleep(100);
        }
    }

    private String gogo(String command) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
        CommandSession session = processor.createSession(new ByteArrayInputStream(new byte[0]), ps, ps);
        try {
            Object result = session.execute(command);
            if (result != null) {
                ps.println(result);
            }
        } finally {
            session.close();
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** A fixed path: the configuration runs outside the framework, the tests inside (other class loader). */
    private static Path deployDir() {
        return Bundles.ROOT.resolve("distribution/target/pax-deploy/deploy");
    }
}
