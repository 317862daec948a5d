/**
 * Where one launch's time goes: an opt-in stage clock shared by the front end, the kernel and the
 * backends (off unless the JVM was started with {@code -Daasm.stages.file=<file>}).
 */
@Export
@Version("1.0.0")
package io.aasm.ports.trace;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
