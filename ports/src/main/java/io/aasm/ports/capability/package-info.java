/**
 * What a backend can do, per capability domain, on this host: independent axes (mediation, decision
 * timing, synchrony, failure posture, descendant coverage, support level) plus prerequisites whose
 * status was observed. Nothing here names a mechanism.
 */
@Export
@Version("1.0.0")
package io.aasm.ports.capability;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
