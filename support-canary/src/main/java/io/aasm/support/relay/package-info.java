/**
 * The mediation-session stand-in that a backend's relay probe owns: a unix listener with a fresh preamble,
 * handed to one mediated launch in place of the proxy's session, which keeps what the relay delivered so the
 * probe can tell whether the granted way (through the relay) worked. Shared by every backend that has a relay.
 */
@Export
@Version("1.0.0")
package io.aasm.support.relay;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
