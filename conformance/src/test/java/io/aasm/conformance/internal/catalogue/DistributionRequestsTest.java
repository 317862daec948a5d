package io.aasm.conformance.internal.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The distribution-level scenarios extend the shipped default policy's read and write lists, as shipped. */
class DistributionRequestsTest {
    private static final String SHAPE = "filesystem:\n  read:\n    # comment\n    # another\n    allow: [/usr, /etc]\n"
            + "    posture: required\n  write:\n    # the project\n    allow: [$WORKDIR]\n    private: [/tmp]\n"
            + "network:\n  egress:\n    allow: []\n";

    @Test
    void theReadAndWriteListsAreExtendedWhereTheyAre() {
        String r = DistributionRequests.extend(SHAPE, "read", "/run/x").orElseThrow();
        String w = DistributionRequests.extend(r, "write", "/var/tmp/out").orElseThrow();
        assertTrue(w.contains("allow: [/usr, /etc, /run/x]") && w.contains("allow: [$WORKDIR, /var/tmp/out]"), w);
        assertTrue(w.contains("egress:\n    allow: []"), "other allow lists are left alone: " + w);
        assertEquals(Optional.of(SHAPE), DistributionRequests.extend(SHAPE, "write", ""), "nothing to add");
        assertEquals(Optional.empty(), DistributionRequests.extend("filesystem:\n  read:\n    allow:\n      - /usr\n",
                "read", "/x"), "a block-style list is not this scenario's to rewrite");
    }

    @Test
    void theShippedDefaultPolicyHasBothLists() throws Exception {
        Path shipped = Path.of("..", "distribution", "src", "dist", "conf", "default-policy.yaml");
        String p = Files.readString(shipped);
        assertTrue(DistributionRequests.extend(p, "read", "/x").isPresent(), "filesystem.read allow list in " + shipped);
        assertTrue(DistributionRequests.extend(p, "write", "/x").isPresent(), "filesystem.write allow list in " + shipped);
    }
}
