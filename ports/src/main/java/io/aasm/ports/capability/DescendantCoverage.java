package io.aasm.ports.capability;

/** Which processes of the launched tree a control covers. */
public enum DescendantCoverage implements Token {
    PROCESS_TREE("process_tree"),
    TARGET_PROCESS_ONLY("target_process_only"),
    UNMEASURED("unmeasured");

    private final String token;

    DescendantCoverage(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
