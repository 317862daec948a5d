package io.aasm.report.json.internal;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;

/**
 * JSON escaping for every ISO control character. Jackson escapes only C0 (below U+0020); DEL and
 * the C1 controls (U+0080–U+009F, among them NEL and the 8-bit CSI that starts a terminal escape
 * sequence) would otherwise reach the output raw. Escaping keeps the values exact for a parser.
 */
final class JsonEscapes extends CharacterEscapes {
    private static final long serialVersionUID = 1L;
    private final int[] ascii = CharacterEscapes.standardAsciiEscapesForJSON();

    JsonEscapes() {
        ascii[0x7f] = CharacterEscapes.ESCAPE_STANDARD;
    }

    @Override
    public int[] getEscapeCodesForAscii() {
        return ascii;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
        return Character.isISOControl(ch) ? new SerializedString(String.format("\\u%04X", ch)) : null;
    }
}
