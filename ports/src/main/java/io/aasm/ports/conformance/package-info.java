/**
 * The conformance and escape suite as a service: front ends (the headless CLI, the Gogo shell, the
 * resident kernel) run it through the one command layer, {@code aasm conformance}, without knowing
 * its scenarios or how it judges them.
 */
@Export
@Version("1.0.0")
package io.aasm.ports.conformance;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
