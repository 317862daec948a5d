/**
 * The isolation report (requested vs achieved per domain, never collapsed) and the renderer
 * contract. Schema {@value io.aasm.ports.report.IsolationReport#SCHEMA}: adding fields keeps the schema,
 * renaming or removing one bumps it.
 *
 * <p>The report vocabulary every renderer shares lives here too, so that all formats say the same
 * thing about the same report: {@link io.aasm.ports.report.ReportWording} (how requirements, scopes
 * and states read in words), {@link io.aasm.ports.report.ReportOrder} (the order of order-free
 * collections) and {@link io.aasm.ports.report.UntrustedText} (how program-influenced text is made
 * safe to print). Layout stays with each renderer.
 */
@Export
@Version("1.0.0")
package io.aasm.ports.report;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
