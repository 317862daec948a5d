package io.aasm.policy.yaml.internal.tree;

import io.aasm.ports.policy.PolicyProblem;
import io.aasm.ports.policy.SourceLocation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Collects every problem of one load, so a rejection lists all of them in file order. */
public final class Problems {
    static final int SHOWN = 200;

    private final String origin;
    private final List<PolicyProblem> found = new ArrayList<>();

    public Problems(String origin) {
        this.origin = origin;
    }

    public String origin() {
        return origin;
    }

    public SourceLocation where(int line, int column) {
        return new SourceLocation(origin, line, column);
    }

    public void add(int line, int column, String message, String hint) {
        found.add(new PolicyProblem(where(line, column), message, hint));
    }

    /** A problem at a node; nodes already rejected (aliases, over-deep) were reported once and stay quiet. */
    public void at(YNode node, String message, String hint) {
        if (node instanceof YNode.Rejected) {
            return;
        }
        add(node.line(), node.column(), message, hint);
    }

    public void at(YNode.Entry entry, String message, String hint) {
        add(entry.line(), entry.column(), message, hint);
    }

    public int count() {
        return found.size();
    }

    public boolean isEmpty() {
        return found.isEmpty();
    }

    /**
     * Problems sorted by position (stable, so same-place problems keep discovery order), at most
     * {@link #SHOWN}: a generated file with thousands of mistakes should not flood the terminal.
     */
    public List<PolicyProblem> sorted() {
        List<PolicyProblem> out = new ArrayList<>(found);
        out.sort(Comparator.comparingInt((PolicyProblem p) -> p.where().line())
                .thenComparingInt(p -> p.where().column()));
        if (out.size() > SHOWN) {
            PolicyProblem last = out.get(SHOWN - 1);
            int more = out.size() - SHOWN;
            out = new ArrayList<>(out.subList(0, SHOWN));
            out.add(new PolicyProblem(last.where(), more + " more problems after this one are not listed",
                    "fix the problems above and check the policy again"));
        }
        return out;
    }
}
