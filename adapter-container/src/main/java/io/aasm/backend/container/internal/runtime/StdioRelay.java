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
 * output is complete, so nothing the program wrote is lost.
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
    private volatile String execFailure = "";

    StdioRelay(Attachment attachment, int in, int out, int err) {
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
        boolean outOpen = true;
        boolean errOpen = true;
        boolean first = true;
        try {
            for (Optional<Attachment.Frame> f = attachment.next(); f.isPresent(); f = attachment.next()) {
                byte[] b = f.get().bytes();
                if (first) {
                    // the init's own line comes first when it could not exec (on stderr, or the terminal)
                    Matcher m = EXEC_FAILED.matcher(new String(b, java.nio.charset.StandardCharsets.UTF_8).strip());
                    execFailure = m.matches() ? m.group(1) + ": " + m.group(2) : "";
                }
                if (f.get().stream() == 2) {
                    errOpen = errOpen && Descriptors.writeAll(err, b);
                } else {
                    outOpen = outOpen && Descriptors.writeAll(out, b);
                }
                first = false;
            }
        } catch (IOException e) {
            // the engine closed the stream early: what arrived was delivered
        }
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
