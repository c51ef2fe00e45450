package dev.toolsmith.capabilities.step;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;

/** An asynchronous semaphore: {@link #acquire()} completes when a permit is free, without blocking a thread. */
final class AdmissionGate {

    private final Deque<CompletableFuture<Void>> waiting = new ArrayDeque<>();
    private int permits;

    AdmissionGate(int permits) {
        this.permits = permits;
    }

    synchronized CompletableFuture<Void> acquire() {
        if (permits > 0) {
            permits--;
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> turn = new CompletableFuture<>();
        waiting.add(turn);
        return turn;
    }

    void release() {
        CompletableFuture<Void> next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) {
                permits++;
                return;
            }
        }
        next.complete(null); // outside the lock: it starts the next step
    }
}
