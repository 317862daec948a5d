package io.aasm.backend.sandlock.internal;

import io.aasm.backend.sandlock.internal.capability.CapabilityCatalog;
import io.aasm.backend.sandlock.internal.supervise.SupervisedRun;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** One supervised sandlock run: the setup evidence it was prepared with, and how the run ended. */
final class SandlockExecution implements Execution {
    private final Launches.Prepared prepared;
    private final SupervisedRun run;
    private final CapabilityCatalog.Teardown teardown;
    private final Runnable ended;

    SandlockExecution(Launches.Prepared prepared, SupervisedRun run, CapabilityCatalog.Teardown teardown,
                      Runnable ended) {
        this.prepared = prepared;
        this.run = run;
        this.teardown = teardown;
        this.ended = ended;
    }

    @Override
    public ExitDisposition await() throws InterruptedException {
        ExitDisposition d = run.waitFor().disposition();
        ended.run();
        return d;
    }

    @Override
    public boolean terminate(TerminationRequest request) {
        return run.terminate(request);
    }

    @Override
    public EnforcementEvidence evidence() {
        List<EvidenceRecord> records = new ArrayList<>(prepared.setup());
        if (run.finished()) {
            try {
                SupervisedRun.Ended e = run.waitFor();
                records.add(new EvidenceRecord(EvidenceKind.EXERCISED, Optional.empty(), ClaimTerm.UNMEASURED,
                        "sandlock ran the program; shell status " + e.disposition().shellStatus() + "; teardown"
                                + " signalled " + e.descendantsKilled() + " leftover process(es) ("
                                + teardown.describe() + ")"));
                if (e.deadlineReached()) {
                    records.add(new EvidenceRecord(EvidenceKind.EXERCISED, Optional.of(CapabilityDomain.RESOURCE),
                            ClaimTerm.OBSERVED, "wall-clock deadline reached; aasm killed the whole tree"));
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        return new EnforcementEvidence("sandlock", records);
    }
}
