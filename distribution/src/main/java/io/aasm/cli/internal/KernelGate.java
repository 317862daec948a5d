package io.aasm.cli.internal;

import io.aasm.ports.kernel.IsolationKernel;
import java.util.Optional;

/**
 * The kernel as a dynamic reference: commands that need it wait for it (with a timeout), commands
 * that do not (help, usage errors, version) never wait. The kernel may be replaced at any time.
 */
final class KernelGate {
    private IsolationKernel kernel;

    synchronized void bind(IsolationKernel k) {
        kernel = k;
        notifyAll();
    }

    synchronized void unbind(IsolationKernel k) {
        if (kernel == k) {
            kernel = null;
        }
    }

    synchronized Optional<IsolationKernel> await(long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (kernel == null) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                return Optional.empty();
            }
            wait(left);
        }
        return Optional.of(kernel);
    }
}
