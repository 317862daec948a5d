package io.aasm.ports.report;

/**
 * Makes a value safe to print in a line-oriented report. Much of a report is text the launched
 * program, its caller or its policy chose (program path, identity, details, names), so a value must
 * not be able to forge a line or a record, send a terminal escape sequence, or display differently
 * from what it says. Renderers that print lines pass every value through {@link #clean(String)};
 * a format with its own escaping (JSON) may keep values exact instead, provided no control
 * character reaches its output raw.
 */
public final class UntrustedText {
    private UntrustedText() {
    }

    /**
     * Replaces every run of unsafe characters with one space. Unsafe are ISO control characters (C0,
     * DEL and C1: CR, LF, TAB, ESC, NUL, NEL, …), Unicode format characters (bidi overrides,
     * zero-width marks, tag characters, including supplementary ones) and line and paragraph
     * separators. Everything else, non-ASCII text included, is kept. Pure and thread-safe.
     *
     * @param value any string, not {@code null}
     * @return the value on one line with no control or invisible format character
     */
    public static String clean(String value) {
        StringBuilder out = new StringBuilder(value.length());
        boolean inRun = false;
        for (int i = 0; i < value.length(); ) {
            int cp = value.codePointAt(i);
            i += Character.charCount(cp);
            if (unsafe(cp)) {
                if (!inRun) {
                    out.append(' ');
                }
                inRun = true;
            } else {
                out.appendCodePoint(cp);
                inRun = false;
            }
        }
        return out.toString();
    }

    private static boolean unsafe(int cp) {
        int type = Character.getType(cp);
        return Character.isISOControl(cp) || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR;
    }
}
