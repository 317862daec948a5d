/**
 * The canary line (one forbidden attempt per prevented domain, made inside a launch's boundary before the
 * program exists), its parser and the rule that turns it into evidence, shared by every backend.
 */
@Export
@Version("1.0.0")
package io.aasm.support.canary;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
