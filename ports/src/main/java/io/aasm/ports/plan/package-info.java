/**
 * Negotiation outcomes: per-requirement outcomes, the enforcement plan and the refusal that lists
 * every unmet requirement. A refusal is a value, never an exception.
 */
@Export
@Version("1.0.0")
package io.aasm.ports.plan;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
