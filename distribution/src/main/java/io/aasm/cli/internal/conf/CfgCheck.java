package io.aasm.cli.internal.conf;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.osgi.service.metatype.AttributeDefinition;
import org.osgi.service.metatype.ObjectClassDefinition;

/**
 * Checks a file's values against the metatype of its PID and types them the way the component's
 * configuration type declares them. Every problem is collected (not only the first): an unknown key
 * (a typo would otherwise be ignored by DS without a word) or a value that is not of the declared
 * type (DS would read {@code yes} as {@code false} for a boolean, silently).
 */
final class CfgCheck {

    sealed interface Outcome permits Valid, Invalid {
    }

    /** The properties to hand to Configuration Admin, typed. */
    record Valid(Hashtable<String, Object> properties) implements Outcome {
    }

    record Invalid(List<String> problems) implements Outcome {
        Invalid {
            problems = List.copyOf(problems);
        }
    }

    private CfgCheck() {
    }

    static Outcome check(CfgFile file, ObjectClassDefinition ocd) {
        Map<String, AttributeDefinition> ads = new TreeMap<>();
        AttributeDefinition[] all = ocd.getAttributeDefinitions(ObjectClassDefinition.ALL);
        for (AttributeDefinition ad : all == null ? new AttributeDefinition[0] : all) {
            ads.put(ad.getID(), ad);
        }
        List<String> problems = new ArrayList<>();
        Hashtable<String, Object> typed = new Hashtable<>();
        for (Map.Entry<String, String> e : file.values().entrySet()) {
            AttributeDefinition ad = ads.get(e.getKey());
            if (ad == null) {
                problems.add("unknown property '" + e.getKey() + "' (" + file.pid() + " has: "
                        + String.join(", ", ads.keySet()) + ")");
                continue;
            }
            try {
                typed.put(e.getKey(), convert(ad, e.getValue()));
            } catch (IllegalArgumentException ex) {
                problems.add(e.getKey() + " = \"" + e.getValue() + "\": " + ex.getMessage());
                continue;
            }
            String verdict = ad.validate(e.getValue());
            if (verdict != null && !verdict.isEmpty()) {
                // metatype's own checks (ranges, options); its messages are keys such as "%invalid value"
                problems.add(e.getKey() + " = \"" + e.getValue() + "\": " + verdict.replaceFirst("^%", ""));
            }
        }
        return problems.isEmpty() ? new Valid(typed) : new Invalid(problems);
    }

    /** A list (cardinality other than 0) is written comma-separated; blanks around items are dropped. */
    static Object convert(AttributeDefinition ad, String value) {
        if (ad.getCardinality() == 0) {
            return scalar(ad.getType(), value);
        }
        List<String> items = new ArrayList<>();
        for (String item : value.split(",")) {
            if (!item.isBlank()) {
                items.add(item.strip());
            }
        }
        Object array = Array.newInstance(typeOf(ad.getType()), items.size());
        for (int i = 0; i < items.size(); i++) {
            Array.set(array, i, scalar(ad.getType(), items.get(i)));
        }
        return array;
    }

    private static Object scalar(int type, String v) {
        try {
            return switch (type) {
                case AttributeDefinition.BOOLEAN -> bool(v);
                case AttributeDefinition.INTEGER -> Integer.valueOf(v);
                case AttributeDefinition.LONG -> Long.valueOf(v);
                case AttributeDefinition.SHORT -> Short.valueOf(v);
                case AttributeDefinition.BYTE -> Byte.valueOf(v);
                case AttributeDefinition.DOUBLE -> Double.valueOf(v);
                case AttributeDefinition.FLOAT -> Float.valueOf(v);
                case AttributeDefinition.CHARACTER -> character(v);
                default -> v;
            };
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not " + typeName(type)
                    + (v.isEmpty() ? " (empty: remove the line to keep the default)" : ""));
        }
    }

    private static Boolean bool(String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException("not a boolean (write true or false)");
        };
    }

    private static Character character(String v) {
        if (v.length() != 1) {
            throw new IllegalArgumentException("not a single character");
        }
        return v.charAt(0);
    }

    private static Class<?> typeOf(int type) {
        return switch (type) {
            case AttributeDefinition.BOOLEAN -> Boolean.class;
            case AttributeDefinition.INTEGER -> Integer.class;
            case AttributeDefinition.LONG -> Long.class;
            case AttributeDefinition.SHORT -> Short.class;
            case AttributeDefinition.BYTE -> Byte.class;
            case AttributeDefinition.DOUBLE -> Double.class;
            case AttributeDefinition.FLOAT -> Float.class;
            case AttributeDefinition.CHARACTER -> Character.class;
            default -> String.class;
        };
    }

    private static String typeName(int type) {
        return switch (type) {
            case AttributeDefinition.INTEGER, AttributeDefinition.SHORT, AttributeDefinition.BYTE -> "an integer";
            case AttributeDefinition.LONG -> "a long integer";
            case AttributeDefinition.DOUBLE, AttributeDefinition.FLOAT -> "a number";
            default -> "a value of the declared type";
        };
    }
}
