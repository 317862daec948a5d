package io.aasm.cli.internal.conf;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * One {@code conf/<pid>.cfg} file as written: the PID (the file name without {@code .cfg}) and every
 * {@code key = value} line ({@link Properties} syntax), keys and values stripped of surrounding blanks.
 * Nothing is typed or checked here; {@link CfgCheck} does that against the PID's metatype.
 */
record CfgFile(Path file, String pid, Map<String, String> values) {
    static final String SUFFIX = ".cfg";

    CfgFile {
        values = Map.copyOf(values);
    }

    static boolean isCfg(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(SUFFIX) && name.length() > SUFFIX.length() && !name.startsWith(".");
    }

    /** Parses the text; a malformed {@code \\uXXXX} escape is a {@link CfgException} naming it. */
    static CfgFile parse(Path file, String text) throws CfgException {
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IllegalArgumentException | IOException e) {
            throw new CfgException("it is not in key = value form: " + e.getMessage());
        }
        Map<String, String> values = new TreeMap<>();
        for (String k : p.stringPropertyNames()) {
            values.put(k.strip(), p.getProperty(k).strip());
        }
        String name = file.getFileName().toString();
        return new CfgFile(file, name.substring(0, name.length() - SUFFIX.length()), values);
    }

    /** A file that could not be read as a configuration; the message completes "… was not applied: ". */
    static final class CfgException extends Exception {
        private static final long serialVersionUID = 1L;

        CfgException(String message) {
            super(message);
        }
    }
}
