package io.aasm.backend.landlockseccomp.internal.lower;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Asks the filesystem as {@link PathReads#DIRECT} does and keeps every answer, so a plan can carry what it was
 * decided from ({@link #facts()}). A question asked twice in one lowering gets its first answer again: the plan is
 * then decided from one consistent set of answers, which is the set its validation asks again. Not thread-safe: one
 * lowering at a time.
 */
public final class RecordedReads implements PathReads {
    private final PathReads direct;
    private final Map<PathFacts.Question, Object> answers = new LinkedHashMap<>();
    private boolean complete = true;

    public RecordedReads() {
        this(PathReads.DIRECT);
    }

    RecordedReads(PathReads direct) {
        this.direct = direct;
    }

    @Override
    public Node lstat(Path p) {
        return (Node) ask(new PathFacts.Question(PathFacts.Kind.LSTAT, p), q -> direct.lstat(p));
    }

    /**
     * stat(2) of a path whose last component lstat(2) already found not to be a symlink gives lstat's answer (both
     * follow every component before the last): no second question, and the lstat question, asked again, covers it.
     */
    @Override
    public Node stat(Path p) {
        Node known = (Node) answers.get(new PathFacts.Question(PathFacts.Kind.LSTAT, p));
        if (known != null && known.exists() && !known.symlink()) {
            return known;
        }
        return (Node) ask(new PathFacts.Question(PathFacts.Kind.STAT, p), q -> direct.stat(p));
    }

    @Override
    public String readlink(Path p) throws IOException {
        PathFacts.Question q = new PathFacts.Question(PathFacts.Kind.READLINK, p);
        Object known = answers.get(q);
        if (known != null) {
            return (String) known;
        }
        try {
            String target = direct.readlink(p);
            answers.put(q, target);
            return target;
        } catch (IOException e) {
            // A link that vanished between lstat and readlink: the plan's refusal rests on a race, not on a fact.
            complete = false;
            throw e;
        }
    }

    @Override
    public boolean writable(Path p) {
        return (Boolean) ask(new PathFacts.Question(PathFacts.Kind.WRITABLE, p), q -> direct.writable(p));
    }

    @Override
    public String realOrNearest(Path p) {
        return (String) ask(new PathFacts.Question(PathFacts.Kind.REAL_OR_NEAREST, p), q -> direct.realOrNearest(p));
    }

    private Object ask(PathFacts.Question q, Function<PathFacts.Question, Object> how) {
        return answers.computeIfAbsent(q, k -> Objects.requireNonNull(how.apply(k)));
    }

    /** Whether every answer is a fact that can be asked again (false: do not keep a plan decided from them). */
    public boolean complete() {
        return complete;
    }

    /** The answers given so far, in the order first asked. */
    public PathFacts facts() {
        return new PathFacts(answers);
    }
}
