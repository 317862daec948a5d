package io.aasm.report.text.internal;

/**
 * Collapses control characters so no value can forge a line or a terminal escape in the report.
 * Invisible format characters (bidi overrides, zero-width marks, tags) go too: they can make a
 * line display differently from what it says.
 */
final class Sanitizer {
    private Sanitizer() {
    }

    /** Every run of control, format or line/paragraph-separator characters becomes one space. */
    static String clean(String value) {
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
