package io.aasm.metadata.gate;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The small SPDX vocabulary the gate understands and the allow list it enforces. Kept in code, not
 * in the data files, so that widening what aasm may bundle is a reviewed code change rather than a
 * one-line edit next to the artifact that needs it.
 */
final class Spdx {
    /** Licence ids the manifests may name (anything else is a typo or needs review first). */
    static final Set<String> KNOWN = Set.of(
            "Apache-2.0", "MIT", "BSD-2-Clause", "BSD-3-Clause", "EPL-1.0", "EPL-2.0", "MPL-2.0",
            "LGPL-2.1-only", "LGPL-2.1-or-later", "LGPL-3.0-only", "LGPL-3.0-or-later",
            "GPL-2.0-only", "GPL-2.0-or-later", "GPL-3.0-only", "GPL-3.0-or-later",
            "AGPL-3.0-only", "AGPL-3.0-or-later", "CDDL-1.0", "CDDL-1.1", "ISC", "Unlicense");

    /** Licences aasm may bundle: permissive, or weak copyleft that is file-scoped (EPL-2.0). */
    static final Set<String> ALLOWED = Set.of("Apache-2.0", "MIT", "BSD-2-Clause", "BSD-3-Clause", "EPL-2.0");

    private Spdx() {
    }

    /** A parsed expression: a single id, or ids joined by one operator (no parentheses, no WITH). */
    record Expression(List<String> ids, String operator) {
    }

    /** Parses {@code A}, {@code A OR B ...} or {@code A AND B ...}; empty when malformed or unknown. */
    static Optional<Expression> parse(String text) {
        if (text == null || text.isBlank() || !text.equals(text.strip())) {
            return Optional.empty();
        }
        String[] tokens = text.split(" ");
        if (tokens.length % 2 == 0) {
            return Optional.empty();
        }
        String operator = tokens.length == 1 ? "" : tokens[1];
        if (!operator.isEmpty() && !operator.equals("OR") && !operator.equals("AND")) {
            return Optional.empty();
        }
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < tokens.length; i++) {
            if (i % 2 == 1) {
                if (!tokens[i].equals(operator)) {
                    return Optional.empty();
                }
            } else if (KNOWN.contains(tokens[i])) {
                ids.add(tokens[i]);
            } else {
                return Optional.empty();
            }
        }
        return Optional.of(new Expression(List.copyOf(ids), operator));
    }

    /**
     * OR means the licensee may choose, so one allowed alternative suffices (aasm elects it); AND
     * means every licence applies at once, so every id must be allowed.
     */
    static boolean allowed(Expression e) {
        return e.operator().equals("OR")
                ? e.ids().stream().anyMatch(ALLOWED::contains)
                : e.ids().stream().allMatch(ALLOWED::contains);
    }
}
