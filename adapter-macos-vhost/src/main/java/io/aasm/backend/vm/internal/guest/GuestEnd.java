package io.aasm.backend.vm.internal.guest;

import java.util.Map;
import java.util.Objects;

/** How a started program ended, as the guest reported it (or why no report came). */
public sealed interface GuestEnd {
    record Exited(int code, Map<String, String> fields) implements GuestEnd {
        public Exited {
            fields = Map.copyOf(fields);
        }
    }

    record Signalled(int signal, Map<String, String> fields) implements GuestEnd {
        public Signalled {
            fields = Map.copyOf(fields);
        }
    }

    /** No exit frame: the VM was killed (deadline, termination) or died. */
    record Lost(String why) implements GuestEnd {
        public Lost {
            Objects.requireNonNull(why);
        }
    }

    static GuestEnd parse(Frame exit) {
        String text = exit.text();
        String first = text.lines().findFirst().orElse("");
        Map<String, String> fields = exit.fields();
        try {
            if (first.startsWith("code:")) {
                return new Exited(Integer.parseInt(first.substring(5).trim()), fields);
            }
            if (first.startsWith("signal:")) {
                return new Signalled(Integer.parseInt(first.substring(7).trim()), fields);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        return new Lost("the guest's exit frame is malformed: " + first);
    }
}
