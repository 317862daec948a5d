package io.aasm.audit.internal;

import io.aasm.ports.audit.AuditCheck;
import io.aasm.ports.audit.AuditLog;
import io.aasm.ports.audit.LaunchAudit;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/** The per-user audit log: {@code audit.jsonl} in the state folder (see {@link ChainedFile}). */
@Component(service = AuditLog.class, configurationPid = "io.aasm.audit",
        configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = AuditLogConfig.class)
public final class JsonlAuditLog implements AuditLog {
    private final ChainedFile file;

    @Activate
    public JsonlAuditLog(AuditLogConfig config) {
        this(config.directory().isBlank() ? defaultDir() : Path.of(config.directory()));
    }

    public JsonlAuditLog(Path dir) {
        this(dir, ChainedFile.HeadCache.CHECKED);
    }

    /** For tests and the append benchmark: the same log with another way of finding the previous record. */
    JsonlAuditLog(Path dir, ChainedFile.HeadCache mode) {
        this.file = new ChainedFile(dir, mode);
    }

    /** $XDG_STATE_HOME/aasm/audit, else ~/.local/state/aasm/audit. */
    public static Path defaultDir() {
        String xdg = System.getenv("XDG_STATE_HOME");
        Path base = xdg != null && xdg.startsWith("/") ? Path.of(xdg)
                : Path.of(home(), ".local", "state");
        return base.resolve("aasm").resolve("audit");
    }

    @Override
    public String append(LaunchAudit launch) throws IOException {
        file.append(LaunchRecord.of(launch));
        return launch.launchId();
    }

    @Override
    public List<String> tail(int n) throws IOException {
        List<String> all = file.lines();
        return all.subList(Math.max(0, all.size() - Math.max(n, 0)), all.size());
    }

    @Override
    public Optional<String> show(String launchId) throws IOException {
        String needle = "\"launch\":\"" + launchId + "\"";
        return file.lines().stream().filter(l -> l.contains(needle)).findFirst();
    }

    @Override
    public AuditCheck verify() throws IOException {
        List<String> lines = file.lines();
        return new AuditCheck(lines.size(), file.verify(lines));
    }

    /**
     * $HOME as the caller set it, else the password database's home: the same home bin/aasm uses for the
     * cache, so a user whose passwd home does not exist (nobody's /nonexistent) can point HOME elsewhere.
     */
    private static String home() {
        String home = System.getenv("HOME");
        return home != null && home.startsWith("/") ? home : System.getProperty("user.home");
    }
}
