package io.aasm.transport.proxy.internal.admission;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/** Resolves a granted host name in the supervisor; never asked about a name no grant names. */
@FunctionalInterface
public interface Resolver {
    List<InetAddress> resolve(String name) throws UnknownHostException;

    /** The supervisor's own resolver (the JDK's, through the C library's configuration). */
    static Resolver system() {
        return name -> List.of(InetAddress.getAllByName(name));
    }
}
