package io.aasm.backend.landlockseccomp.internal.lower;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The filesystem answers one plan was decided from, and their validation: each question asked again of the
 * kernel, now. A lowering is a function of its key and of these answers (every read it makes goes through
 * {@link PathReads}), so when every answer is the same again a fresh lowering would ask the same questions, get the
 * same answers and decide the same plan. Answers are identities, not times: an lstat answer is device, inode, mode
 * and owner (a path re-pointed by a new symlink, a folder replaced by a symlink, a chown: each changes it), and a
 * symlink's content is read again with readlink.
 */
public final class PathFacts {
    public enum Kind { LSTAT, STAT, READLINK, WRITABLE, REAL_OR_NEAREST }

    public record Question(Kind kind, Path path) {
        public Question {
            Objects.requireNonNull(kind);
            Objects.requireNonNull(path);
        }

        Object ask(PathReads reads) {
            return switch (kind) {
                case LSTAT -> reads.lstat(path);
                case STAT -> reads.stat(path);
                case WRITABLE -> reads.writable(path);
                case REAL_OR_NEAREST -> reads.realOrNearest(path);
                case READLINK -> {
                    try {
                        yield reads.readlink(path);
                    } catch (IOException e) {
                        yield e; // never equal to a recorded target
                    }
                }
            };
        }
    }

    private final List<Question> questions;
    private final List<Object> answers;

    PathFacts(Map<Question, Object> asked) {
        this.questions = List.copyOf(asked.keySet());
        this.answers = List.copyOf(asked.values());
    }

    /** Whether every answer is still the one given: asks each question once more through {@code reads}. */
    public boolean stillHold(PathReads reads) {
        for (int i = 0; i < questions.size(); i++) {
            if (!answers.get(i).equals(questions.get(i).ask(reads))) {
                return false;
            }
        }
        return true;
    }

    public boolean stillHold() {
        return stillHold(PathReads.DIRECT);
    }

    public int size() {
        return questions.size();
    }

    /** The questions, for tests and diagnostics. */
    public List<Question> questions() {
        return new ArrayList<>(questions);
    }
}
