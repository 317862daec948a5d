import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per-record CPU of the audit record's two per-launch steps in this JVM: Jackson's JSON of the record's map and the
 * SHA-256 of that text (the chain's hash). A measurement, not a test (docs/benchmarks.md, "What is left").
 *
 * <p>usage: {@code java -XX:CompilationMode=quick-only -cp JACKSON_JARS distribution/bench/AuditCost.java
 * RECORD.json WARMUP N}, RECORD.json one line of an audit log.
 */
public class AuditCost {
    public static void main(String[] a) throws Exception {
        ObjectMapper json = new ObjectMapper();
        @SuppressWarnings("unchecked")
        Map<String, Object> body = json.readValue(Files.readString(Path.of(a[0])), LinkedHashMap.class);
        int warm = Integer.parseInt(a[1]), n = Integer.parseInt(a[2]);
        var mx = ManagementFactory.getThreadMXBean();
        String text = null;
        for (int i = 0; i < warm; i++) {
            text = json.writeValueAsString(body);
            HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes("UTF-8")));
        }
        long c0 = mx.getCurrentThreadCpuTime();
        for (int i = 0; i < n; i++) {
            text = json.writeValueAsString(body);
        }
        long c1 = mx.getCurrentThreadCpuTime();
        for (int i = 0; i < n; i++) {
            HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes("UTF-8")));
        }
        long c2 = mx.getCurrentThreadCpuTime();
        System.out.printf("record %d chars, after %d warm-up records: JSON %.1f us, SHA-256 %.1f us per record%n",
                text.length(), warm, (c1 - c0) / 1e3 / n, (c2 - c1) / 1e3 / n);
    }
}
