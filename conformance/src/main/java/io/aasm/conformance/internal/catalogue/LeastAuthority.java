package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.evidence.ProcessAuthority;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Least authority is measured, not assumed: the action (a grandchild) writes its own capability sets and
 * no_new_privs from {@code /proc/self/status}. The effect is the program holding any capability or lacking
 * no_new_privs; the audit holds the post-run report to what the program saw: {@code least_authority} may
 * say yes only when the program's status is clean, and a measured authority must show the sets the
 * program had. The action's record proves that it ran, so no control is needed.
 */
final class LeastAuthority {
    private LeastAuthority() {
    }

    static Scenario scenario() {
        String name = "surr-least-authority-truth";
        return new Scenario(name, CapabilityDomain.SYSCALL,
                "hold a capability or lack no_new_privs while the report says least_authority yes", b -> {
                    Path record = b.out().resolve("status");
                    Staged.Observation effect = () -> {
                        Map<String, String> got = fields(Trees.read(record));
                        if (got.size() < 6) {
                            return Effect.absent("the program recorded no status (" + got + ")");
                        }
                        return clean(got) ? Effect.absentAfterAction("the program holds no capability and has"
                                + " no_new_privs: " + got) : Effect.happened("the program holds authority: " + got);
                    };
                    // judged on the syscall row (privileged interfaces), which every backend can state without the
                    // credential domain's own prerequisites
                    Staged s = new Staged(b.policy(name).section("syscalls: {deny: [acct]}").text(),
                            b.policy(name).text(), "syscalls removed (least authority is every launch's)",
                            "grep -E '^(Cap|NoNewPrivs)' /proc/self/status > " + record, effect, b::clearOut,
                            Staged.Chore.nothing(), Optional.empty());
                    return new Staging.Ready(s.withAudit(post -> contradictions(post, fields(Trees.read(record)))));
                });
    }

    /** CapInh, CapPrm, CapEff, CapBnd, CapAmb and NoNewPrivs, as the program's status shows them. */
    static Map<String, String> fields(String status) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : status.lines().toList()) {
            String[] kv = line.split(":\\s*", 2);
            if (kv.length == 2 && kv[0].matches("Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs")) {
                m.put(kv[0], kv[1].strip());
            }
        }
        return m;
    }

    static boolean clean(Map<String, String> f) {
        return f.entrySet().stream().filter(e -> e.getKey().startsWith("Cap")).allMatch(e -> e.getValue().matches("0+"))
                && "1".equals(f.get("NoNewPrivs"));
    }

    static List<String> contradictions(IsolationReport post, Map<String, String> program) {
        List<String> lies = new ArrayList<>();
        if (program.size() < 6) {
            return lies; // nothing recorded: no evidence to hold the report to
        }
        if (post.leastAuthority() && !clean(program)) {
            lies.add("post_run: least_authority yes, but the program's own status shows " + program);
        }
        Optional<ProcessAuthority> a = post.authority().filter(ProcessAuthority::measured);
        if (a.isPresent()) {
            Map<String, String> said = Map.of("CapInh", a.get().capInheritable(), "CapPrm", a.get().capPermitted(),
                    "CapEff", a.get().capEffective(), "CapBnd", a.get().capBounding(), "CapAmb", a.get().capAmbient());
            for (var e : said.entrySet()) {
                // a descendant may hold less than the measured program, never more while no_new_privs holds: only
                // a set reported empty while the action held some is a contradiction
                if (e.getValue().matches("0+") && !program.get(e.getKey()).matches("0+")) {
                    lies.add("post_run: the measured authority shows " + e.getKey() + " empty, but the program's"
                            + " own status shows " + program.get(e.getKey()));
                }
            }
            if (a.get().noNewPrivs() && !"1".equals(program.get("NoNewPrivs"))) {
                lies.add("post_run: the measured authority shows no_new_privs, but the program's own status shows"
                        + " NoNewPrivs " + program.get("NoNewPrivs"));
            }
        }
        return lies;
    }
}
