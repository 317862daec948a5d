package io.aasm.cli.internal;

/**
 * The command layer's one entry point inside the framework (the resident kernel's connections call
 * it; the boot jar reaches it through {@link HeadlessEntry}'s JDK-typed face). Thread-safe: every call
 * builds its own command tree.
 */
public interface CommandEntry {
    /** Parses, runs and renders one command; returns the exit status the CLI would exit with. */
    int execute(CommandInvocation invocation);
}
