package io.aasm.audit.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Typed configuration (PID io.aasm.audit). */
@ObjectClassDefinition(name = "aasm audit log", id = "io.aasm.audit")
public @interface AuditLogConfig {
    @AttributeDefinition(description = "Folder of the audit log (empty: $XDG_STATE_HOME/aasm/audit, else "
            + "~/.local/state/aasm/audit). It must stay outside every boundary's write grants: aasm protects it.")
    String directory() default "";
}
