package io.aasm.cli.internal;

import java.util.Optional;

/**
 * A dynamic service reference (the kernel, the conformance suite): commands that need it wait for it
 * with a timeout, commands that do not (help, usage errors, version) never wait. The service may be
 * replaced at any time.
 */
final class ServiceGate<T> {
    private T service;

    synchronized void bind(T s) {
        service = s;
        notifyAll();
    }

    synchronized void unbind(T s) {
        if (service == s) {
            service = null;
        }
    }

    synchronized Optional<T> await(long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (service == null) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                return Optional.empty();
            }
            wait(left);
        }
        return Optional.of(service);
    }
}
