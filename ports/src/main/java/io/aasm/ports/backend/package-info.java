/**
 * The isolation backend contract (identity and provenance, capabilities, prepare/spawn, wait,
 * terminate, evidence) and the launch description a backend receives. Nothing mechanism-specific.
 */
@Export
@Version("1.0.0")
package io.aasm.ports.backend;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
