package io.aasm.ports.capability;

/** A value with a stable wire token, used by every enum that appears in reports. */
public interface Token {
    /** The stable, lower-case wire token; renaming one is a schema change. */
    String token();
}
