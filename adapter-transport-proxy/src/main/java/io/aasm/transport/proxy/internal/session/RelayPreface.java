package io.aasm.transport.proxy.internal.session;

import io.aasm.transport.proxy.internal.handoff.HandOff;
import io.aasm.transport.proxy.internal.wire.ChannelReader;
import java.io.IOException;
import java.util.Optional;

/**
 * What a relayed connection begins with, before the program's first byte: the relay's hand-off capability
 * ({@code 0xFF 'A' 'H' version}, optional), then the session's preamble (PROTOCOL.md, Hand-off). Both are
 * written by the relay on its own connection, where the program cannot write.
 *
 * @param announced the relay can take the tunnel's sockets (its version is ours and this host can pass them)
 * @param refusal   why the connection is not the session's; empty when it is
 */
record RelayPreface(boolean announced, Optional<String> refusal) {

    static RelayPreface read(ChannelReader in, Gate gate) throws IOException {
        boolean announced = false;
        if (in.peek() == 0xFF) {
            byte[] cap = in.readFully(4);
            if (cap[1] != 'A' || cap[2] != 'H' || cap[3] < 1) {
                return refused("the connection began with a malformed relay capability");
            }
            announced = cap[3] == HandOff.VERSION && HandOff.UNAVAILABLE.isEmpty();
        }
        if (!gate.preambleMatches(in.readFully(gate.preamble().orElseThrow().length))) {
            return refused("the connection did not carry this session's relay credential");
        }
        return new RelayPreface(announced, Optional.empty());
    }

    private static RelayPreface refused(String why) {
        return new RelayPreface(false, Optional.of(why));
    }
}
