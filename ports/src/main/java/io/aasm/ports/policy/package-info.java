/**
 * What policy asks for, backend-neutral: the parsed policy (one statement per capability domain),
 * the requirements it lowers to (intent, posture, descendants, typed scope) and the policy source
 * contract. Empty vs absent is one rule for every domain: an absent section states nothing (no
 * requirement, the domain is reported "not stated"); a present section with an empty grant list
 * grants nothing in that domain (deny-all).
 */
@Export
@Version("1.0.0")
package io.aasm.ports.policy;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
