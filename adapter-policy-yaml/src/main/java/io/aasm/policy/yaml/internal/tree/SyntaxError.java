package io.aasm.policy.yaml.internal.tree;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.reader.ReaderException;

/**
 * Turns a parser failure into one located problem. Jackson reports where its own reader stood, which
 * can be a line early; snakeyaml's problem mark is where the offending character actually is.
 */
final class SyntaxError {
    private SyntaxError() {
    }

    static void report(Throwable failure, String text, Problems problems) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
                Mark mark = marked.getProblemMark();
                problems.add(mark.getLine() + 1, mark.getColumn() + 1, "YAML syntax error: " + describe(marked),
                        hint(marked.getProblem()));
                return;
            }
            if (t instanceof ReaderException reader) {
                int[] lc = lineColumn(text, reader.getPosition());
                problems.add(lc[0], lc[1], String.format("the file contains a forbidden control character (U+%04X)",
                        reader.getCodePoint()), "remove it; a policy is plain printable text");
                return;
            }
        }
        int line = 0;
        int column = 0;
        if (failure instanceof JacksonException jackson && jackson.getLocation() != null) {
            JsonLocation at = jackson.getLocation();
            line = Math.max(at.getLineNr(), 0);
            column = Math.max(at.getColumnNr(), 0);
        }
        String message = failure instanceof JacksonException j && j.getOriginalMessage() != null
                ? firstLine(j.getOriginalMessage()) : String.valueOf(failure.getMessage());
        if (message.startsWith("Expected a field name")) {
            problems.add(line, column, "mapping keys must be plain strings (complex keys are not allowed)",
                    "write 'key: value' with a plain key");
            return;
        }
        problems.add(line, column, "YAML could not be read: " + message, "fix the YAML syntax at this place");
    }

    private static String describe(MarkedYAMLException marked) {
        String problem = marked.getProblem() == null ? "invalid YAML" : marked.getProblem();
        String context = marked.getContext();
        return (context == null ? problem : context + ": " + problem).replace("\t", "\\t");
    }

    private static String hint(String problem) {
        if (problem != null && problem.contains("TAB")) {
            return "indent with spaces; YAML does not allow tab characters for indentation";
        }
        return "fix the YAML syntax at this place";
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** 1-based line and column of a code-point index. */
    static int[] lineColumn(String text, int codePointIndex) {
        int line = 1;
        int column = 1;
        int i = 0;
        for (int cp = 0; i < text.length() && cp < codePointIndex; cp++) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            if (c == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        return new int[] {line, column};
    }
}
