/**
 * The audit log: one record per finished launch, appended by the kernel before the launch counts as done,
 * kept tamper-evident by its implementation. Records hold digests and verdicts, never environment values
 * or file contents.
 */
@Export
@Version("1.0.0")
package io.aasm.ports.audit;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
