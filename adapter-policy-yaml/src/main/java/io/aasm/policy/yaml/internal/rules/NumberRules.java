package io.aasm.policy.yaml.internal.rules;

import io.aasm.policy.yaml.internal.tree.YNode;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts and sizes. Only plain decimal digits are numbers here: YAML 1.1 would read 0755 as octal and
 * 0x10 as hex, which is a surprise nobody wants in a resource ceiling.
 */
public final class NumberRules {
    /** Binary multiples, as systemd and container runtimes read K/M/G. */
    private static final Map<String, Long> UNITS = Map.of(
            "", 1L, "B", 1L,
            "K", 1L << 10, "KiB", 1L << 10,
            "M", 1L << 20, "MiB", 1L << 20,
            "G", 1L << 30, "GiB", 1L << 30,
            "T", 1L << 40, "TiB", 1L << 40);
    private static final List<String> UNIT_NAMES = List.of("B", "K", "KiB", "M", "MiB", "G", "GiB", "T", "TiB");
    private static final Pattern SIZE = Pattern.compile("([0-9]+)\\s*([A-Za-z]*)");
    private static final Pattern DIGITS = Pattern.compile("0|[1-9][0-9]*");

    private NumberRules() {
    }

    /** A positive integer in [1, max]. */
    public static Checked<Long> count(YNode node, long max) {
        if (!(node instanceof YNode.Scalar s) || s.kind() != YNode.ScalarKind.INTEGER) {
            String quoted = node instanceof YNode.Scalar s2 && s2.kind() == YNode.ScalarKind.STRING
                    && DIGITS.matcher(s2.text()).matches() ? "remove the quotes; " : "";
            return Checked.bad("expected a positive integer, found " + node.describe(), quoted + "write e.g. 64");
        }
        return range(s.text(), 1, max, "");
    }

    /** A byte size: an integer (bytes) or digits with a binary unit, e.g. 512MiB. */
    public static Checked<Long> size(YNode node, long max) {
        if (!(node instanceof YNode.Scalar s)
                || (s.kind() != YNode.ScalarKind.INTEGER && s.kind() != YNode.ScalarKind.STRING)) {
            return Checked.bad("expected a size, found " + node.describe(), "write e.g. 512MiB, 10M or 4096 (bytes)");
        }
        Matcher m = SIZE.matcher(s.text().trim());
        if (!m.matches()) {
            return Checked.bad("'" + s.text() + "' is not a size", "write whole numbers with a unit, e.g. 512MiB,"
                    + " 1536M or 4096 (bytes); units: " + String.join(", ", UNIT_NAMES));
        }
        Long unit = UNITS.get(m.group(2));
        if (unit == null) {
            String binary = m.group(2).length() == 2 && m.group(2).endsWith("B")
                    ? m.group(2).charAt(0) + "iB" : m.group(2);
            String guess = UNITS.containsKey(binary)
                    ? "did you mean '" + binary + "'? decimal units are not supported; "
                    : Suggest.didYouMean(m.group(2), UNIT_NAMES);
            return Checked.bad("unknown size unit '" + m.group(2) + "' in '" + s.text() + "'",
                    guess + "units: " + String.join(", ", UNIT_NAMES) + " (binary multiples)");
        }
        return range(m.group(1), unit, max, m.group(2));
    }

    private static Checked<Long> range(String digits, long unit, long max, String unitName) {
        if (!DIGITS.matcher(digits).matches()) {
            return Checked.bad("'" + digits + "' is not a plain decimal number",
                    "write decimal digits without leading zeros, signs, '_' or 0x");
        }
        BigInteger value = new BigInteger(digits).multiply(BigInteger.valueOf(unit));
        if (value.signum() <= 0) {
            return Checked.bad("the value must be at least 1, found " + digits + unitName,
                    "a ceiling of zero is not a ceiling; state a positive value");
        }
        if (value.compareTo(BigInteger.valueOf(max)) > 0) {
            return Checked.bad("the value " + digits + unitName + " is out of range", "the maximum is " + max);
        }
        return Checked.ok(value.longValueExact());
    }
}
