package io.aasm.conformance.internal.catalogue;

import java.util.Objects;

/**
 * What the supervisor observed after teardown: whether the hostile effect happened, and the
 * evidence. {@code actionShown} is set when the same run proved the action itself took place (a
 * daemon that wrote its heartbeat before teardown): the absence of the effect is then the
 * boundary's doing without a separate control run.
 */
public record Effect(boolean happened, String evidence, boolean actionShown) {
    public Effect {
        Objects.requireNonNull(evidence);
    }

    public static Effect happened(String evidence) {
        return new Effect(true, evidence, true);
    }

    public static Effect absent(String evidence) {
        return new Effect(false, evidence, false);
    }

    public static Effect absentAfterAction(String evidence) {
        return new Effect(false, evidence, true);
    }
}
