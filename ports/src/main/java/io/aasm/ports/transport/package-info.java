/**
 * Transport mediation: the supervisor-owned proxy through which a launch's network traffic leaves its
 * boundary, independent of the boundary itself ({@code --no-proxy} switches it off, {@code --isolation}
 * does not). The kernel decides whether a launch is mediated ({@link io.aasm.ports.transport.TransportMediation},
 * carried in the {@code ExecutionSpec}), opens one {@link io.aasm.ports.transport.MediationSession} per
 * mediated launch from the installed {@link io.aasm.ports.transport.TransportMediator}, and hands it to the
 * backend in the {@code EnforcementPlan}. A backend that can relay makes {@code 127.0.0.1:port} inside its
 * boundary lead to the session's {@link io.aasm.ports.transport.RelayEndpoint} and gives the program the
 * session's environment; the session records one {@link io.aasm.ports.transport.EgressDecision} per
 * connection attempt, which the kernel attaches to the launch's evidence. Nothing here names a mechanism.
 */
@Export
@Version("1.0.0")
package io.aasm.ports.transport;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
