/**
 * Services the kernel provides to front ends (headless CLI, Gogo shell, resident kernel,
 * embedded callers): policy checks, launch decisions, launches and backend listings.
 */
@Export
@Version("1.0.0")
package io.aasm.ports.kernel;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
