package io.aasm.ports.report;

import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The order in which every renderer prints the collections of a report whose order carries no
 * meaning, so the same report always renders to the same bytes whatever order its parts arrived
 * in. Collections whose order means something (lineage, the candidates of a walk, launch-wide
 * refusals, evidence records) keep it. Comparators and methods are stateless and thread-safe.
 */
public final class ReportOrder {
    /** Egress grants by host, protocol token, then port range. */
    public static final Comparator<EgressGrant> EGRESS_GRANTS = Comparator.comparing(EgressGrant::host)
            .thenComparing(g -> g.protocol().token())
            .thenComparingInt(EgressGrant::portFrom)
            .thenComparingInt(EgressGrant::portTo);

    /** Requirements in domain order; ties (two requirements of one domain) by their wording. */
    public static final Comparator<ControlRequirement> REQUIREMENTS = Comparator.comparing(ControlRequirement::domain)
            .thenComparing(ReportWording::requirement);

    /**
     * Launch-wide refusals first, then per-domain refusals in domain order. Use it with a stable
     * sort: launch-wide refusals keep the kernel's order (a summary, then candidates in walk order).
     */
    public static final Comparator<RefusalEntry> REFUSALS =
            Comparator.comparingInt((RefusalEntry e) -> e.domain().map(d -> d.ordinal() + 1).orElse(0));

    private ReportOrder() {
    }

    /** A sorted copy of order-free strings (paths, names, tokens); never {@code null}, unmodifiable. */
    public static List<String> sorted(Collection<String> values) {
        return values.stream().sorted().toList();
    }
}
