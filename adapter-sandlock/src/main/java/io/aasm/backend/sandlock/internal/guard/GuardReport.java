package io.aasm.backend.sandlock.internal.guard;

import io.aasm.ports.evidence.DescriptorInventory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Everything the guard said about one run (GUARD.md, "Status lines"), parsed. Unknown lines are kept
 * in the transcript only. {@code guardExit} is the guard's own exit status, -1 while it runs.
 * {@code sandlockAuthority} is what sandlock's own /proc status showed right after its execve
 * ({@code CapInh=...;...;NoNewPrivs=1;Seccomp=0}). {@code canary} is the first line of the launch's canary
 * FIFO (the shim's record, see canary.c), when one was asked for and arrived.
 */
public record GuardReport(Optional<DescriptorInventory> inventory, OptionalLong sandlockPid, Optional<String> refused,
                          List<String> statusLines, OptionalInt swept, Optional<End> end, int guardExit,
                          Optional<String> sandlockAuthority, Optional<String> canary, List<String> transcript) {
    public GuardReport {
        statusLines = List.copyOf(statusLines);
        transcript = List.copyOf(transcript);
    }

    /** How sandlock itself ended, as the guard's waitpid saw it. */
    public sealed interface End {
        record Code(int code) implements End {
        }

        record Signal(int signal) implements End {
        }
    }

    /** Accumulates lines as they arrive (one reader thread); {@link #snapshot} is safe from any thread. */
    static final class Builder {
        private DescriptorInventory inventory;
        private Long sandlockPid;
        private String refused;
        private final List<String> status = new ArrayList<>();
        private Integer swept;
        private End end;
        private int guardExit = -1;
        private String authority;
        private String canary;
        private final List<String> transcript = new ArrayList<>();

        synchronized void line(String line) {
            transcript.add(line);
            int colon = line.indexOf(':');
            String kind = colon < 0 ? line : line.substring(0, colon);
            String rest = colon < 0 ? "" : line.substring(colon + 1);
            try {
                switch (kind) {
                    case "fds" -> inventory = inventory(rest);
                    case "started" -> sandlockPid = Long.parseLong(rest.strip());
                    case "refused" -> refused = rest;
                    case "status" -> status.add(rest);
                    case "swept" -> swept = Integer.parseInt(rest.strip());
                    case "authority" -> authority = rest;
                    case "canary" -> canary = canary == null ? rest : canary; // the first line, never a later one
                    case "exit" -> end = rest.startsWith("signal:")
                            ? new End.Signal(Integer.parseInt(rest.substring(7).strip()))
                            : new End.Code(Integer.parseInt(rest.substring(rest.indexOf(':') + 1).strip()));
                    default -> {
                        // Kept in the transcript only: new lines may be added compatibly.
                    }
                }
            } catch (RuntimeException e) {
                transcript.add("(unparsable guard line)");
            }
        }

        synchronized void guardExited(int status) {
            guardExit = status;
        }

        synchronized GuardReport snapshot() {
            return new GuardReport(Optional.ofNullable(inventory),
                    sandlockPid == null ? OptionalLong.empty() : OptionalLong.of(sandlockPid),
                    Optional.ofNullable(refused), status, swept == null ? OptionalInt.empty() : OptionalInt.of(swept),
                    Optional.ofNullable(end), guardExit, Optional.ofNullable(authority), Optional.ofNullable(canary),
                    transcript);
        }
    }

    /** {@code kept=0,1,2;sealed=4;residual=5/9;complete=1}. */
    static DescriptorInventory inventory(String text) {
        List<Integer> kept = List.of();
        List<Integer> sealed = List.of();
        List<String> residual = List.of();
        boolean complete = false;
        for (String part : text.split(";")) {
            int eq = part.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String value = part.substring(eq + 1);
            switch (part.substring(0, eq)) {
                case "kept" -> kept = ints(value);
                case "sealed" -> sealed = ints(value);
                case "residual" -> residual = value.isEmpty() ? List.of() : Arrays.asList(value.split(","));
                case "complete" -> complete = value.equals("1");
                default -> {
                }
            }
        }
        return new DescriptorInventory(complete, kept, sealed, residual);
    }

    private static List<Integer> ints(String csv) {
        return csv.isEmpty() ? List.of() : Arrays.stream(csv.split(",")).map(Integer::valueOf).toList();
    }
}
