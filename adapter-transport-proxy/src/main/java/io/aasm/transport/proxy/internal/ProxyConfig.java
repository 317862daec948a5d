package io.aasm.transport.proxy.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Typed configuration of the transport mediator (PID {@code io.aasm.transport.proxy}). */
@ObjectClassDefinition(name = "aasm transport mediation", description = "The supervisor's proxy for mediated launches")
public @interface ProxyConfig {
    @AttributeDefinition(description = "Directory of the per-launch sessions (sockets and decision logs, mode 0700);"
            + " empty means $XDG_CACHE_HOME/aasm/mediation, else ~/.cache/aasm/mediation (inside aasm's protected"
            + " cache, so no boundary can write it)")
    String state_dir() default "";

    @AttributeDefinition(description = "Milliseconds the proxy waits for a destination to accept a connection")
    int connect_timeout_millis() default 10_000;

    @AttributeDefinition(description = "Hand an admitted tunnel's upstream socket to a relay that accepts it, so the"
            + " relay carries the bytes and the proxy leaves the byte path (false: the proxy carries every tunnel;"
            + " for comparison measurements)")
    boolean hand_off() default true;
}
