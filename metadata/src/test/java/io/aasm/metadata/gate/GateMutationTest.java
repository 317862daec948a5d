package io.aasm.metadata.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Each case is one single mutation of the known-good manifests or distribution; each must be rejected. */
class GateMutationTest {
    @TempDir
    Path dir;

    /** The good inputs a mutation edits in place. */
    record Inputs(ObjectNode backends, ObjectNode artifacts, Path dist) {
        ObjectNode sandlock() {
            return (ObjectNode) backends.get("backends").get(0);
        }

        ObjectNode channel(String name) {
            return (ObjectNode) sandlock().get("channels").get(name);
        }

        ObjectNode artifact(int i) {
            return (ObjectNode) artifacts.get("artifacts").get(i);
        }
    }

    interface Mutation {
        void apply(Inputs in) throws IOException;
    }

    record Case(String name, Mutation mutation, String expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("wrong SPDX id on the backend", in -> in.sandlock().put("license", "Apache 2"),
                        "license 'Apache 2' is not a known SPDX expression"),
                new Case("missing pinnedVersion", in -> in.sandlock().remove("pinnedVersion"),
                        "missing field 'pinnedVersion'"),
                new Case("missing license", in -> in.sandlock().remove("license"), "missing field 'license'"),
                new Case("missing modified", in -> in.sandlock().remove("modified"), "missing field 'modified'"),
                new Case("missing sha256 list", in -> in.sandlock().remove("sha256"), "missing field 'sha256'"),
                new Case("missing upstream", in -> in.sandlock().remove("upstream"), "missing field 'upstream'"),
                new Case("bundled=true for sandlock", in -> in.channel("tarball").put("bundled", true),
                        "external backend 'sandlock' is marked bundled"),
                new Case("bundled strategy for sandlock", in -> in.channel("container").put("strategy", "bundled")
                        .put("bundled", true), "channel container: external backend 'sandlock' is marked bundled"),
                new Case("GPL backend bundled", in -> {
                    in.sandlock().put("license", "GPL-2.0-only");
                    in.channel("tarball").put("strategy", "downloaded").put("bundled", true);
                }, "is bundled under a licence not on the allow list"),
                new Case("unknown channel", in -> ((ObjectNode) in.sandlock().get("channels")).putObject("homebrew")
                        .put("strategy", "system").put("bundled", false), "unknown channel 'homebrew'"),
                new Case("channel missing", in -> ((ObjectNode) in.sandlock().get("channels")).remove("maven"),
                        "channel 'maven' is missing"),
                new Case("unknown strategy", in -> in.channel("maven").put("strategy", "vendored"),
                        "unknown strategy 'vendored'"),
                new Case("duplicate backend id", in -> ((ArrayNode) in.backends().get("backends"))
                        .add(in.sandlock().deepCopy()), "duplicate backend id 'sandlock'"),
                new Case("malformed digest (a prefix)", in -> ((ArrayNode) in.sandlock().get("sha256"))
                        .add("86e89e5b...73fb"), "malformed sha256 digest '86e89e5b...73fb'"),
                new Case("upper-case digest", in -> ((ArrayNode) in.sandlock().get("sha256")).add("AB".repeat(32)),
                        "malformed sha256 digest"),
                new Case("duplicate digest", in -> ((ArrayNode) in.sandlock().get("sha256")).add("ab".repeat(32))
                        .add("ab".repeat(32)), "duplicate sha256 digest"),
                new Case("version not MAJOR.MINOR.PATCH", in -> in.sandlock().put("pinnedVersion", "0.8"),
                        "pinnedVersion '0.8' is not MAJOR.MINOR.PATCH"),
                new Case("plain-http upstream", in -> in.sandlock().put("upstream", "http://github.com/x"),
                        "must be an https:// URL"),
                new Case("modified as a string", in -> in.sandlock().put("modified", "no"),
                        "field 'modified' must be true or false"),
                new Case("unknown backend field", in -> in.sandlock().put("bundledBy", "ci"),
                        "unknown field 'bundledBy'"),
                new Case("wrong schema", in -> in.backends().put("schema", "aasm.isolation-backends/2"),
                        "schema must be 'aasm.isolation-backends/1'"),
                new Case("no backends", in -> in.backends().putArray("backends"), "'backends' is empty"),
                new Case("unknown kind", in -> in.sandlock().put("kind", "library"), "unknown kind 'library'"),
                new Case("executable name with a path", in -> ((ArrayNode) in.sandlock().get("executableNames"))
                        .add("bin/sandlock"), "executableNames entries must be plain file names"),
                new Case("upper-case backend id", in -> in.sandlock().put("id", "Sandlock"),
                        "must be lower-case letters, digits and dashes"),
                new Case("GPL licence on a bundled artifact", in -> in.artifact(0).put("license", "GPL-3.0-only"),
                        "license 'GPL-3.0-only' is not on the allow list"),
                new Case("AND with a non-allowed licence", in -> in.artifact(14)
                        .put("license", "Apache-2.0 AND LGPL-2.1-or-later"), "is not on the allow list"),
                new Case("OR without an allowed alternative", in -> in.artifact(14)
                        .put("license", "GPL-2.0-only OR LGPL-2.1-or-later"), "is not on the allow list"),
                new Case("wrong SPDX id on an artifact", in -> in.artifact(3).put("license", "Apache License 2.0"),
                        "license 'Apache License 2.0' is not a known SPDX expression"),
                new Case("mixed SPDX operators", in -> in.artifact(3).put("license", "MIT OR Apache-2.0 AND BSD-3-Clause"),
                        "is not a known SPDX expression"),
                new Case("duplicate artifact", in -> ((ArrayNode) in.artifacts().get("artifacts"))
                        .add(in.artifact(9).deepCopy()), "duplicate artifact 'com.fasterxml.jackson.core:jackson-core'"),
                new Case("artifact missing version", in -> in.artifact(2).remove("version"), "missing field 'version'"),
                new Case("unlisted jar in dist", in -> GateFixture.jar(in.dist().resolve("lib/guava-33.0.jar"), null,
                        "com.google.guava", "guava", "33.0", null, null),
                        "third-party jar lib/guava-33.0.jar is not listed"),
                new Case("listed artifact at another version", in -> GateFixture.jar(
                        in.dist().resolve("bundle/picocli-4.7.6.jar"), null, "info.picocli", "picocli", "4.7.6",
                        null, null), "third-party jar bundle/picocli-4.7.6.jar is not listed"),
                new Case("sandlock binary in dist", in -> write(in.dist().resolve("bin/sandlock"),
                        GateFixture.elf("x")), "distribution file bin/sandlock is named after external backend"),
                new Case("sandlock release tarball in dist", in -> write(in.dist().resolve("lib/sandlock-x86_64.tar.gz"),
                        new byte[] {1, 2}), "distribution file lib/sandlock-x86_64.tar.gz is named after"),
                new Case("sandlock binary posing as a conf file", in -> write(
                        in.dist().resolve("conf/io.aasm.backend.sandlock.cfg"), GateFixture.elf("x")),
                        "distribution file conf/io.aasm.backend.sandlock.cfg is named after external backend"),
                new Case("binary conf file named after the backend", in -> write(
                        in.dist().resolve("conf/sandlock.cfg"), new byte[] {'a', 0, 'b'}),
                        "distribution file conf/sandlock.cfg is named after external backend"),
                new Case("renamed backend ELF", in -> write(in.dist().resolve("bin/helper"),
                        GateFixture.elf("usage: sandlock run")), "looks like a renamed backend binary"),
                new Case("ELF with a pinned digest", in -> {
                    byte[] bin = GateFixture.elf("anonymous");
                    ((ArrayNode) in.sandlock().get("sha256")).add(DistributionScan.sha256(bin));
                    write(in.dist().resolve("lib/native/libx.so"), bin);
                }, "a pinned digest of external backend 'sandlock'"),
                new Case("backend executable inside a jar", in -> GateFixture.jar(
                        in.dist().resolve("bundle/adapter-extra-1.0.jar"), "io.aasm.extra", "io.aasm", "adapter-extra",
                        "1.0", "bin/sandlock", new byte[] {'#', '!'}),
                        "contains bin/sandlock, an executable of external backend 'sandlock'"),
                new Case("corrupt jar", in -> write(in.dist().resolve("lib/broken-1.0.jar"), new byte[] {1, 2, 3}),
                        "is named .jar but is not a readable jar"));
    }

    private static void write(Path file, byte[] bytes) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void singleMutationIsRejected(Case c) throws IOException {
        Inputs in = new Inputs(GateFixture.backends(), GateFixture.artifacts(), GateFixture.goodDist(dir));
        GateFixture.Result clean = GateFixture.run(dir, in.backends(), in.artifacts(), in.dist());
        assertEquals(0, clean.code(), "the unmutated inputs must pass: " + clean.err());
        c.mutation().apply(in);
        GateFixture.Result r = GateFixture.run(dir, in.backends(), in.artifacts(), in.dist());
        assertEquals(1, r.code(), c.name() + " was accepted: " + r.out());
        assertTrue(r.err().contains(c.expected()), c.name() + ": expected '" + c.expected() + "' in\n" + r.err());
    }

    @org.junit.jupiter.api.Test
    void thereAreAtLeastTwentyFiveMutations() {
        assertTrue(cases().count() >= 25);
        assertEquals(cases().count(), cases().map(Case::name).distinct().count());
        List<String> names = cases().map(Case::name).toList();
        assertTrue(names.contains("bundled=true for sandlock"));
    }
}
