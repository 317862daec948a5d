package io.aasm.backend.landlockseccomp.internal.seccomp;

import java.util.List;
import java.util.Objects;

/**
 * One seccomp program, by syscall name: a default action and rules. The kernel runs every installed
 * program and the most restrictive result wins, so independent concerns (policy list, hardening,
 * socket families) are separate programs rather than one merged rule set.
 */
public record FilterSpec(String purpose, Action defaultAction, List<Rule> rules) {
    public FilterSpec {
        Objects.requireNonNull(purpose);
        Objects.requireNonNull(defaultAction);
        rules = List.copyOf(rules);
    }

    public sealed interface Action {
        int encode();

        String describe();
    }

    public record Allow() implements Action {
        @Override
        public int encode() {
            return Libseccomp.SCMP_ACT_ALLOW;
        }

        @Override
        public String describe() {
            return "allow";
        }
    }

    public record Errno(int errno, String name) implements Action {
        @Override
        public int encode() {
            return Libseccomp.errno(errno);
        }

        @Override
        public String describe() {
            return "fail with " + name;
        }
    }

    public static final Action ALLOW = new Allow();
    public static final Action EPERM = new Errno(1, "EPERM");
    public static final Action ENOSYS = new Errno(38, "ENOSYS");

    /** A comparison on one argument; MASKED_EQ compares {@code arg & mask == value}. */
    public record ArgCmp(int arg, Op op, long a, long b) {
        public static ArgCmp eq(int arg, long value) {
            return new ArgCmp(arg, Op.EQ, value, 0);
        }

        public static ArgCmp maskedEq(int arg, long mask, long value) {
            return new ArgCmp(arg, Op.MASKED_EQ, mask, value);
        }
    }

    public enum Op {
        NE(1), LT(2), LE(3), EQ(4), GE(5), GT(6), MASKED_EQ(7);

        final int code;

        Op(int code) {
            this.code = code;
        }
    }

    /** A rule: every argument comparison must hold (AND). */
    public record Rule(String syscall, Action action, List<ArgCmp> args) {
        public Rule {
            Objects.requireNonNull(syscall);
            Objects.requireNonNull(action);
            args = List.copyOf(args);
        }

        public static Rule of(String syscall, Action action) {
            return new Rule(syscall, action, List.of());
        }
    }
}
