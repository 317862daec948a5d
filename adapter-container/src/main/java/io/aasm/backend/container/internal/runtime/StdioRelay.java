package io.aasm.backend.container.internal.runtime;

import io.aasm.backend.container.internal.engine.Attachment;
import io.aasm.backend.container.internal.host.LibC;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Copies the caller's stdin into the container and the container's output to the caller's stdout and
 * stderr, over one {@link Attachment}. End of file on the caller's stdin becomes end of file on the
 * program's (a half-close of the attachment). The input side polls, so it stops reading the moment the
 * launch ends; the output side runs until the engine ends the stream, which it does once the container's
 * output is complete, so nothing the program wrote is lost. With canaries, the first line of the container's
 * stderr (of its terminal, with one) is the init's canary record, written before the program existed: it is
 * taken and stripped here, and no later line is ever looked at (init-canary.h).
 */
final class StdioRelay {
    /** What the container's init (src/main/c/aasm-container-init.c) prints when it cannot exec the program. */
    private static final Pattern EXEC_FAILED = Pattern.compile("aasm-init: exec (.*) failed: (.*)");

    private final Attachment attachment;
    private final int in;
    private final int out;
    private final int err;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final Thread input;
    private final Thread output;
    private static final String CANARY = "aasm-canary:";
    private static final int CANARY_MAX = 2048;

    private volatile String execFailure = "";
    /** The stream the init's canary line comes first on (2, or 1 with a terminal); 0 without canaries. */
    private int canaryStream;
    private final java.io.ByteArrayOutputStream pending = new java.io.ByteArrayOutputStream();
    private volatile Optional<String> canaryLine = Optional.empty();

    StdioRelay(Attachment attachment, int in, int out, int err) {
        this(attachment, in, out, err, 0);
    }

    StdioRelay(Attachment attachment, int in, int out, int err, int canaryStream) {
        this.canaryStream = canaryStream;
        this.attachment = attachment;
        this.in = in;
        this.out = out;
        this.err = err;
        this.input = new Thread(this::pumpInput, "aasm-container-stdin");
        this.output = new Thread(this::pumpOutput, "aasm-container-output");
        input.setDaemon(true);
        output.setDaemon(true);
    }

    void start() {
        output.start();
        input.start();
    }

    private void pumpInput() {
        byte[] buf = new byte[65536];
        try {
            if (in < 0) {
                attachment.closeStdin(); // detached: the program's stdin is at end of file from the start
                return;
            }
            while (!ended.get()) {
                int ev = Descriptors.poll(in, LibC.POLLIN, 100);
                if (ev == 0) {
                    continue;
                }
                int n = ev < 0 ? -2 : Descriptors.read(in, buf);
                if (n == -1) {
                    continue;
                }
                if (n <= 0 || ended.get()) {
                    break; // end of file (or an unreadable stdin, which the program sees as one)
                }
                attachment.writeStdin(buf, 0, n);
            }
            if (!ended.get()) {
                attachment.closeStdin();
            }
        } catch (IOException e) {
            // the container no longer reads: its stdin is closed with it
        }
    }

    private void pumpOutput() {
        try {
            for (Optional<Attachment.Frame> f = attachment.next(); f.isPresent(); f = attachment.next()) {
                byte[] b = f.get().bytes();
                if (f.get().stream() == canaryStream) {
                    b = canary(b);
                }
                if (b.length > 0) {
                    deliver(f.get().stream(), b);
                }
            }
        } catch (IOException e) {
            // the engine closed the stream early: what arrived was delivered
        }
        if (canaryStream != 0 && pending.size() > 0) {
            deliver(canaryStream, pending.toByteArray()); // no line ended: it was not a record
        }
    }

    private boolean outOpen = true;
    private boolean errOpen = true;
    private boolean first = true;

    private void deliver(int stream, byte[] b) {
        if (first) {
            // the init's own line comes first when it could not exec (on stderr, or the terminal)
            Matcher m = EXEC_FAILED.matcher(new String(b, java.nio.charset.StandardCharsets.UTF_8).strip());
            execFailure = m.matches() ? m.group(1) + ": " + m.group(2) : "";
        }
        if (stream == 2) {
            errOpen = errOpen && Descriptors.writeAll(err, b);
        } else {
            outOpen = outOpen && Descriptors.writeAll(out, b);
        }
        first = false;
    }

    /**
     * Holds the canary stream's bytes until its first newline; a first line that is the init's record is
     * kept and stripped, anything else is passed on as it came. Returns what to deliver now.
     */
    private byte[] canary(byte[] b) {
        pending.write(b, 0, b.length);
        byte[] all = pending.toByteArray();
        int nl = -1;
        for (int i = 0; i < all.length && nl < 0; i++) {
            nl = all[i] == '\n' ? i : -1;
        }
        if (nl < 0 && all.length < CANARY_MAX) {
            return new byte[0];
        }
        canaryStream = 0; // decided: never look at a later line
        pending.reset();
        String line = new String(all, 0, Math.max(nl, 0), java.nio.charset.StandardCharsets.UTF_8).replace("\r", "");
        if (nl < 0 || !line.startsWith(CANARY)) {
            return all;
        }
        canaryLine = Optional.of(line.substring(CANARY.length()));
        return java.util.Arrays.copyOfRange(all, nl + 1, all.length);
    }

    /** The init's canary record (without its marker), once the output ended or the line arrived. */
    Optional<String> canaryLine() {
        return canaryLine;
    }

    /** Waits until every byte of the container's output was delivered (bounded). */
    void awaitOutput(long millis) throws InterruptedException {
        output.join(millis);
    }

    /** The launch ended: stop reading the caller's stdin now. */
    void stop() {
        ended.set(true);
        attachment.close();
    }

    /** "program: reason" when the container's init reported that it could not exec the program. */
    String execFailure() {
        return execFailure;
    }
}
