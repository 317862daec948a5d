package io.aasm.cli.internal.conf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.metatype.ObjectClassDefinition;

/**
 * Puts the files of {@code conf/} into Configuration Admin: a valid {@code <pid>.cfg} becomes the
 * configuration of that PID; a file that cannot be read, names no known PID or holds a bad value is
 * not applied at all, so whatever was in effect before (the previous file, or the defaults) stays.
 * A removed file returns its PID to the defaults. Each call says what happened as a {@link Note}.
 */
final class CfgApplier {
    /** One line for the operator; {@code problem} when a file was not applied. */
    record Note(boolean problem, String text) {
    }

    private final ConfigurationAdmin cm;
    private final Metatypes metatypes;
    private final Path dir;
    /** The bytes last handled per file: FileInstall's first scan repeats what the start already applied. */
    private final Map<Path, byte[]> seen = new HashMap<>();
    private final Map<Path, String> applied = new HashMap<>();
    /** Files whose PID no bundle declared yet: a bundle resolved later (deploy/) may declare it. */
    private final Set<Path> unknownPid = new HashSet<>();

    CfgApplier(ConfigurationAdmin cm, Metatypes metatypes, Path dir) {
        this.cm = cm;
        this.metatypes = metatypes;
        this.dir = dir;
    }

    Path dir() {
        return dir;
    }

    /** Every file of the folder, in name order. */
    synchronized List<Note> applyAll() {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            ds.forEach(files::add);
        } catch (IOException e) {
            return Files.exists(dir) ? List.of(new Note(true, "conf/ cannot be read: " + e.getMessage())) : List.of();
        }
        files.sort(null);
        List<Note> notes = new ArrayList<>();
        files.forEach(f -> changed(f).ifPresent(notes::add));
        return notes;
    }

    synchronized Optional<Note> changed(Path file) {
        String shown = "conf/" + file.getFileName();
        if (file.getFileName().toString().endsWith(".config")) {
            return once(file, new Note(true, shown + " was not applied: aasm reads <pid>.cfg files (key = value lines)"));
        }
        if (!CfgFile.isCfg(file) || !Files.isRegularFile(file)) {
            return Optional.empty();
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            return Optional.of(rejected(shown, List.of("it cannot be read (" + e.getMessage() + ")")));
        }
        if (Arrays.equals(bytes, seen.put(file, bytes))) {
            return Optional.empty();
        }
        CfgFile cfg;
        try {
            cfg = CfgFile.parse(file, StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString());
        } catch (CharacterCodingException e) {
            return Optional.of(rejected(shown, List.of("it is not UTF-8 text")));
        } catch (CfgFile.CfgException e) {
            return Optional.of(rejected(shown, List.of(e.getMessage())));
        }
        Optional<ObjectClassDefinition> ocd = metatypes.definition(cfg.pid());
        unknownPid.remove(file);
        if (ocd.isEmpty() && cfg.values().isEmpty()) {
            // sets nothing, for a bundle that is not installed (a shipped example for an optional backend):
            // there is nothing to apply and nothing to warn about; a later change is read anew
            seen.remove(file);
            return Optional.empty();
        }
        if (ocd.isEmpty()) {
            unknownPid.add(file);
            return Optional.of(rejected(shown, List.of("no installed component has the configuration PID '" + cfg.pid()
                    + "' (configurable PIDs: " + String.join(", ", metatypes.pids()) + ")")));
        }
        CfgCheck.Outcome outcome = CfgCheck.check(cfg, ocd.get());
        if (outcome instanceof CfgCheck.Invalid invalid) {
            return Optional.of(rejected(shown, invalid.problems()));
        }
        try {
            if (cfg.values().isEmpty()) {
                // every line commented out: the defaults, exactly as without the file
                applied.remove(file);
                return delete(cfg.pid()) ? Optional.of(new Note(false, shown + " sets nothing: " + cfg.pid()
                        + " is back to its defaults")) : Optional.empty();
            }
            Configuration c = cm.getConfiguration(cfg.pid(), "?");
            boolean different = c.updateIfDifferent(((CfgCheck.Valid) outcome).properties());
            applied.put(file, cfg.pid());
            return different ? Optional.of(new Note(false, shown + " applied to " + cfg.pid())) : Optional.empty();
        } catch (IOException | org.osgi.framework.InvalidSyntaxException | RuntimeException e) {
            seen.remove(file); // not in effect: try again on the next change
            return Optional.of(rejected(shown, List.of("Configuration Admin refused it: " + e.getMessage())));
        }
    }

    /** Tries again the files whose PID was unknown (a bundle was resolved); reports only what changed. */
    synchronized List<Note> retryUnknown() {
        List<Note> notes = new ArrayList<>();
        for (Path file : List.copyOf(unknownPid)) {
            seen.remove(file);
            changed(file).filter(n -> !n.problem()).ifPresent(notes::add);
        }
        return notes;
    }

    synchronized Optional<Note> removed(Path file) {
        seen.remove(file);
        unknownPid.remove(file);
        String pid = applied.remove(file);
        if (pid == null) {
            return Optional.empty();
        }
        try {
            delete(pid);
            return Optional.of(new Note(false, "conf/" + file.getFileName() + " removed: " + pid
                    + " is back to its defaults"));
        } catch (IOException | org.osgi.framework.InvalidSyntaxException | RuntimeException e) {
            return Optional.of(new Note(true, "conf/" + file.getFileName() + " was removed, but the configuration of "
                    + pid + " could not be deleted: " + e.getMessage()));
        }
    }

    /** Whether there was a configuration to delete. */
    private boolean delete(String pid) throws IOException, org.osgi.framework.InvalidSyntaxException {
        Configuration[] found = cm.listConfigurations("(service.pid=" + escaped(pid) + ")");
        for (Configuration c : found == null ? new Configuration[0] : found) {
            c.delete();
        }
        return found != null && found.length > 0;
    }

    private Optional<Note> once(Path file, Note note) {
        return seen.put(file, new byte[0]) == null ? Optional.of(note) : Optional.empty();
    }

    private static Note rejected(String shown, List<String> problems) {
        return new Note(true, shown + " was not applied (the configuration in effect is unchanged): "
                + String.join("; ", problems));
    }

    private static String escaped(String value) {
        return value.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").replace("*", "\\*");
    }
}
