package io.aasm.policy.yaml.internal.tree;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Streams YAML events into a {@link YNode} tree. Anchors, aliases, tags, duplicate keys and over-deep
 * nesting are reported here (all of them, not the first); a syntax error ends the read because the
 * YAML parser cannot resume after one.
 */
public final class TreeReader {
    /** Deepest legitimate policy node is 6 levels down; anything far deeper is hostile or a mistake. */
    public static final int MAX_DEPTH = 12;

    private static final YAMLFactory FACTORY = factory();

    private final Problems problems;
    private boolean tooDeep;

    public TreeReader(Problems problems) {
        this.problems = problems;
    }

    /** Defence in depth: the parser itself also caps input size, nesting and aliases. */
    private static YAMLFactory factory() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(InputGate.MAX_BYTES + 1024);
        options.setNestingDepthLimit(64);
        options.setMaxAliasesForCollections(0);
        options.setAllowDuplicateKeys(true); // we report duplicates ourselves, with both locations
        options.setAllowRecursiveKeys(false);
        return YAMLFactory.builder()
                .loaderOptions(options)
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(64).maxStringLength(InputGate.MAX_BYTES).maxNumberLength(64).build())
                .build();
    }

    /** The single document's root, or empty when nothing usable was read (problems say why). */
    public Optional<YNode> read(String text) {
        try (YAMLParser parser = (YAMLParser) FACTORY.createParser(text)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                problems.add(1, 1, "the policy is empty", "start with 'apiVersion: aasm/v1' and 'kind: Policy'");
                return Optional.empty();
            }
            YNode root = value(parser, 1);
            JsonToken next = parser.nextToken();
            if (next != null) {
                JsonLocation at = parser.currentTokenLocation();
                problems.add(at.getLineNr(), at.getColumnNr(), "the file holds more than one YAML document",
                        "put exactly one policy in a file; remove the '---' separator and what follows");
            }
            return Optional.of(root);
        } catch (StreamConstraintsException e) {
            // Skipping an over-deep subtree still walks it; the parser's own cap then fires. Already reported.
            if (!tooDeep) {
                SyntaxError.report(e, text, problems);
            }
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            SyntaxError.report(e, text, problems);
            return Optional.empty();
        }
    }

    private YNode value(YAMLParser parser, int depth) throws IOException {
        JsonLocation at = parser.currentTokenLocation();
        int line = at.getLineNr();
        int column = at.getColumnNr();
        if (parser.isCurrentAlias()) {
            problems.add(line, column, "anchors and aliases are not allowed (YAML bomb protection)",
                    "write the value out in full instead of '*" + parser.getText() + "'");
            return new YNode.Rejected(line, column);
        }
        String anchor = parser.getObjectId();
        if (anchor != null) {
            problems.add(line, column, "anchors and aliases are not allowed (YAML bomb protection)",
                    "remove the anchor '&" + anchor + "'");
        }
        String tag = parser.getTypeId();
        if (tag != null) {
            problems.add(line, column, "YAML tags are not allowed ('" + tag + "')",
                    "remove the tag; write plain values (quote a value to make it a string)");
        }
        JsonToken token = parser.currentToken();
        if ((token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) && depth > MAX_DEPTH) {
            problems.add(line, column, "the policy nests deeper than " + MAX_DEPTH + " levels",
                    "a policy is at most 6 levels deep; flatten or remove this node");
            tooDeep = true;
            parser.skipChildren();
            return new YNode.Rejected(line, column);
        }
        return switch (token) {
            case START_OBJECT -> mapping(parser, depth, line, column);
            case START_ARRAY -> sequence(parser, depth, line, column);
            case VALUE_STRING -> new YNode.Scalar(line, column, YNode.ScalarKind.STRING, text(parser, line, column));
            case VALUE_NUMBER_INT -> new YNode.Scalar(line, column, YNode.ScalarKind.INTEGER, parser.getText());
            case VALUE_NUMBER_FLOAT -> new YNode.Scalar(line, column, YNode.ScalarKind.FLOAT, parser.getText());
            case VALUE_TRUE, VALUE_FALSE -> new YNode.Scalar(line, column, YNode.ScalarKind.BOOLEAN, parser.getText());
            case VALUE_NULL -> new YNode.Scalar(line, column, YNode.ScalarKind.NULL, parser.getText());
            default -> {
                if (tag == null) {
                    problems.add(line, column, "unsupported YAML value", "write a plain string, number, list or mapping");
                }
                yield new YNode.Rejected(line, column);
            }
        };
    }

    private YNode mapping(YAMLParser parser, int depth, int line, int column) throws IOException {
        List<YNode.Entry> entries = new ArrayList<>();
        Map<String, YNode.Entry> seen = new HashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            JsonLocation at = parser.currentTokenLocation();
            String key = text(parser, at.getLineNr(), at.getColumnNr());
            parser.nextToken();
            YNode.Entry entry = new YNode.Entry(key, at.getLineNr(), at.getColumnNr(), value(parser, depth + 1));
            YNode.Entry first = seen.putIfAbsent(key, entry);
            if (first == null) {
                entries.add(entry);
            } else {
                problems.at(entry, "duplicate key '" + key + "' (first defined at line " + first.line()
                        + ", column " + first.column() + ")", "keep one '" + key + "' and merge the two");
            }
        }
        return new YNode.Mapping(line, column, entries);
    }

    /** A double-quoted escape can name half a surrogate pair; such a string cannot be printed or encoded later. */
    private String text(YAMLParser parser, int line, int column) throws IOException {
        String s = parser.getText();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean paired = Character.isHighSurrogate(c) && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1));
            if (paired) {
                i++;
            } else if (Character.isSurrogate(c)) {
                problems.add(line, column, "the text contains an unpaired UTF-16 surrogate escape",
                        "escape whole characters only, e.g. \\U0001F600");
                return s;
            }
        }
        return s;
    }

    private YNode sequence(YAMLParser parser, int depth, int line, int column) throws IOException {
        List<YNode> items = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            items.add(value(parser, depth + 1));
        }
        return new YNode.Sequence(line, column, items);
    }
}
