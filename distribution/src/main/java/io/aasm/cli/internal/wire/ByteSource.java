package io.aasm.cli.internal.wire;

import java.io.IOException;

/** Where frames are read from: a raw descriptor, a socket channel, bytes in a test. */
@FunctionalInterface
public interface ByteSource {
    /** Reads up to {@code len} bytes into {@code b} at {@code off}; -1 at the end of the stream. */
    int read(byte[] b, int off, int len) throws IOException;
}
