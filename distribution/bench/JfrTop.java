import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a resident kernel's Java CPU goes, from a JFR recording. A benchmark tool, not a test:
 * {@code java distribution/bench/JfrTop.java REC.jfr [TOP [FROM TO]]} (FROM and TO: epoch ms, the measured window
 * {@code profile.sh} writes to {@code WORK/window}; events outside it are left out) (the JDK's {@code jfr print --json} could not read
 * these recordings: "Unknown string encoding"; the consumer API reads them).
 *
 * <p>Record with {@code distribution/bench/profile.sh}, which starts a kernel with
 * {@code -XX:StartFlightRecording=settings=profile,delay=…,duration=…,filename=…} (the kernel allows no attach,
 * so the recording ends by its duration) and drives a throughput loop meanwhile. Prints the share of the Java
 * execution samples (a thread running Java code, every 10–20 ms) by request-path family (the first family of
 * the list with a marker anywhere on the stack), by top frame, and the collector's CPU from its own events.
 * Code outside Java (system calls, the collector, the compiler) is not in the samples. Allocation samples
 * ({@code jdk.ObjectAllocationSample}, weighted by the bytes each stands for) are attributed the same way, and
 * by the class allocated.
 */
public final class JfrTop {
    /** Family, then the markers (substrings of "class.method"); the list order is the priority. */
    private static final String[][] FAMILIES = {
        {"picocli model built", "picocli.CommandLine.<init>", "picocli.CommandLine.addSubcommand", "AasmCli.decorate",
            "AasmCli.finish"},
        {"picocli parse and execute", "picocli.CommandLine$Interpreter", "picocli.CommandLine.setOut",
            "picocli.CommandLine.setErr", "picocli.CommandLine.set"},
        {"caller check (/proc, pidfd)", "CallerJudge"},
        {"request read and parse", "RequestReader", "Request.parse", "Frames"},
        {"request log", "RequestLog"},
        {"policy load", "PolicyLoader"},
        {"policy lowering", "PolicyLowerer", "WorkingDirectoryGrants"},
        {"program resolution, credentials", "ProgramResolver", "CredentialPlan"},
        {"aasm-native plan (capabilities, Landlock rules, view, seccomp)", "LandlockSeccompBackend.plan"},
        {"selection and negotiation", "Selector.select", "Negotiator"},
        {"pre-launch and post-run reports", "ReportBuilder", "postRunReport"},
        {"audit: record built, chained, appended", "Auditor", "ChainedFile", "AuditLog"},
        {"policy digest", "digest", "MessageDigest"},
        {"launch prepare (cgroups, files, plan message, canaries)", "LandlockSeccompBackend.prepare",
            "CgroupPlacement", "PlanMessage", "PreparedFiles", "CanaryWitness"},
        {"launcher start (ProcessBuilder, jspawnhelper)", "ProcessBuilder.start", "ProcessImpl"},
        {"launcher status lines and wait", "StatusReader", "LauncherProcess"},
        {"report rendering, posture line", "io.aasm.report", "PostureLine", "ReportFile"},
        {"logging", "java.util.logging", "org.apache.felix.log", "Logger"},
        {"JSON (Jackson) elsewhere", "com.fasterxml.jackson"},
    };

    public static void main(String[] args) throws Exception {
        int top = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        long from = args.length > 3 ? Long.parseLong(args[2]) : Long.MIN_VALUE;
        long to = args.length > 3 ? Long.parseLong(args[3]) : Long.MAX_VALUE;
        Map<String, Long> allocFamily = new LinkedHashMap<>(), allocClass = new HashMap<>();
        long allocBytes = 0;
        Map<String, Integer> family = new LinkedHashMap<>(), self = new HashMap<>(), thread = new HashMap<>();
        Map<String, Integer> other = new HashMap<>();
        int samples = 0;
        int gcs = 0;
        double gcUserMs = 0, gcSysMs = 0;
        long compileMs0 = -1, compileMs1 = -1, compiles0 = 0, compiles1 = 0;
        List<RecordedEvent> events = new java.util.ArrayList<>();
        try (RecordingFile rf = new RecordingFile(Path.of(args[0]))) {
            while (rf.hasMoreEvents()) {
                events.add(rf.readEvent());
            }
        } catch (java.io.IOException ex) {
            // a recording the kernel's exit dumped can end in a chunk the consumer cannot parse ("Unknown string
            // encoding"): what came before it is kept, and said
            System.out.printf("the recording is damaged after %d events (%s); those are used%n", events.size(), ex.getMessage());
        }
        for (RecordedEvent e : events) {
            String type = e.getEventType().getName();
            long at = e.getStartTime().toEpochMilli();
            if (at < from || at > to) {
                continue;
            }
            if (type.equals("jdk.ObjectAllocationSample") && e.getStackTrace() != null) {
                long w = e.getLong("weight");
                allocBytes += w;
                List<String> names = e.getStackTrace().getFrames().stream()
                        .map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName()).toList();
                allocFamily.merge(familyOf(names), w, Long::sum);
                allocClass.merge(e.getClass("objectClass").getName(), w, Long::sum);
                continue;
            }
            if (type.equals("jdk.GCCPUTime")) {
                gcs++;
                gcUserMs += e.getLong("userTime") / 1e6;
                gcSysMs += e.getLong("systemTime") / 1e6;
            }
            if (type.equals("jdk.CompilerStatistics")) { // cumulative: the first and last give the window's share
                compileMs1 = e.getLong("totalTimeSpent");
                compiles1 = e.getLong("compileCount");
                if (compileMs0 < 0) {
                    compileMs0 = compileMs1;
                    compiles0 = compiles1;
                }
            }
            if (!type.equals("jdk.ExecutionSample") || e.getStackTrace() == null) {
                continue;
            }
            List<RecordedFrame> frames = e.getStackTrace().getFrames();
            if (frames.isEmpty()) {
                continue;
            }
            samples++;
            List<String> names = frames.stream()
                    .map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName()).toList();
            self.merge(names.get(0), 1, Integer::sum);
            String t = e.getThread("sampledThread") == null ? "?" : e.getThread("sampledThread").getJavaName();
            thread.merge(t.replaceAll("-?[0-9]+$", ""), 1, Integer::sum);
            String f = familyOf(names);
            family.merge(f, 1, Integer::sum);
            if (f.equals("other")) { // named by its innermost frame of aasm's own code, to find what is missing
                other.merge(names.stream().filter(n -> n.startsWith("io.aasm")).findFirst().orElse(names.get(0)), 1,
                        Integer::sum);
            }
        }
        System.out.printf("%d execution samples; the collector: %d collections, %.0f ms user + %.0f ms system%n",
                samples, gcs, gcUserMs, gcSysMs);
        System.out.printf("the JIT compiler: %d compilations, %d ms in them (between its first and last statistics)%n",
                compiles1 - compiles0, compileMs1 - compileMs0);
        print("by thread", thread, samples, top);
        print("by request-path family", family, samples, 99);
        print("by top frame (self)", self, samples, top);
        print("\"other\", by its innermost frame of io.aasm code", other, samples, top);
        System.out.printf("%nallocation samples stand for %.1f MiB%n", allocBytes / 1048576.0);
        printLong("allocation by request-path family", allocFamily, allocBytes, 99);
        printLong("allocation by class", allocClass, allocBytes, top);
    }

    private static void printLong(String title, Map<String, Long> counts, long total, int top) {
        System.out.println("\n" + title + ":");
        counts.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue())).limit(top)
                .forEach(en -> System.out.printf("  %5.1f %%  %8.1f MiB  %s%n", 100.0 * en.getValue() / total,
                        en.getValue() / 1048576.0, en.getKey()));
    }

    private static String familyOf(List<String> names) {
        for (String[] f : FAMILIES) {
            for (int i = 1; i < f.length; i++) {
                String marker = f[i];
                if (names.stream().anyMatch(n -> n.contains(marker))) {
                    return f[0];
                }
            }
        }
        return "other";
    }

    private static void print(String title, Map<String, Integer> counts, int total, int top) {
        System.out.println("\n" + title + ":");
        counts.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(top)
                .forEach(en -> System.out.printf("  %5.1f %%  %s%n", 100.0 * en.getValue() / total, en.getKey()));
    }
}
