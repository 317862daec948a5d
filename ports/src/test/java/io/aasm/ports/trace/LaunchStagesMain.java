package io.aasm.ports.trace;

/**
 * Run in a JVM of its own by {@link LaunchStagesTest} (the file property is read once, when the class loads):
 * one trace whose marks arrive out of time order, one external stamp from before the trace began, and a mark
 * on a thread without a trace.
 */
public final class LaunchStagesMain {
    private LaunchStagesMain() {
    }

    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        LaunchStages.begin("accept", t0);
        LaunchStages.mark("late", t0 + 3_000_000);
        LaunchStages.mark("early", t0 + 1_000_000);
        LaunchStages.mark("ignored", 0);
        Thread other = new Thread(() -> LaunchStages.mark("elsewhere"));
        other.start();
        other.join();
        LaunchStages.finish();
        LaunchStages.mark("after");
        LaunchStages.finish();
        System.out.println(LaunchStages.enabled());
    }
}
