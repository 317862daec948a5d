/**
 * Evidence: what a backend can show about a launch, graded by kind, and the claim vocabulary that
 * reports use. Only a per-decision record supports a prevention claim.
 */
@Export
@Version("1.0.0")
package io.aasm.ports.evidence;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
