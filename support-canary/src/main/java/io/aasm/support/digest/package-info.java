/**
 * A file's identity as stat(2) gives it, and a digest remembered under it in a backend's own state, so that a
 * binary a backend must verify (sandlock's executable, aasm-native's launcher) is not read and hashed again
 * while it is unchanged; and the rule every such remembered answer in a backend's own state is read and written
 * by ({@link io.aasm.support.digest.OwnEntry}). Shared by the backends that pin or check a binary or remember
 * an answer per boot.
 */
@Export
@Version("1.1.0")
package io.aasm.support.digest;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
