package io.aasm.report.json.internal;

/** Collapses control characters so no value can forge a line or a terminal escape in the report. */
final class Sanitizer {
    private Sanitizer() {
    }

    /** Every run of control or line/paragraph-separator characters becomes one space. */
    static String clean(String value) {
        StringBuilder out = new StringBuilder(value.length());
        boolean inRun = false;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                if (!inRun) {
                    out.append(' ');
                }
                inRun = true;
            } else {
                out.append(c);
                inRun = false;
            }
        }
        return out.toString();
    }
}
