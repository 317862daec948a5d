/**
 * The isolation report (requested vs achieved per domain, never collapsed) and the renderer
 * contract. Schema {@value io.aasm.ports.report.IsolationReport#SCHEMA}: adding fields keeps the schema,
 * renaming or removing one bumps it.
 */
@Export
@Version("1.0.0")
package io.aasm.ports.report;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
