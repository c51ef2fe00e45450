package dev.toolsmith.capabilities.step;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Runs one database statement for many concurrent steps: requests that arrive while {@code maxInFlight}
 * statements are already running wait and go together in the next one (at most {@code maxBatch}). There
 * is no timer: at a low rate a request goes at once and waits for nothing; under load batches grow with
 * the rate, so each step costs the database a fraction of a statement, a commit and a round trip.
 * Each caller gets its answer back on its own Vert.x context (its step's trace and log context live there).
 *
 * @param <T> one step's request
 * @param <R> its answer; {@code statement} answers a batch with one answer per request, in order
 */
final class CoalescedStatements<T, R> {

    private final Function<List<T>, Uni<List<R>>> statement;
    private final int maxBatch;
    private final int maxInFlight;
    private final ArrayDeque<Waiting<T, R>> queue = new ArrayDeque<>();
    private int inFlight;

    CoalescedStatements(Function<List<T>, Uni<List<R>>> statement, int maxBatch, int maxInFlight) {
        this.statement = statement;
        this.maxBatch = maxBatch;
        this.maxInFlight = maxInFlight;
    }

    private record Waiting<T, R>(T request, Context context, CompletableFuture<R> answer) {

        void complete(R value) {
            if (context == null) {
                answer.complete(value);
            } else {
                context.runOnContext(ignored -> answer.complete(value));
            }
        }

        void fail(Throwable failure) {
            if (context == null) {
                answer.completeExceptionally(failure);
            } else {
                context.runOnContext(ignored -> answer.completeExceptionally(failure));
            }
        }
    }

    Uni<R> submit(T request) {
        return Uni.createFrom().deferred(() -> {
            Waiting<T, R> waiting = new Waiting<>(request, Vertx.currentContext(), new CompletableFuture<>());
            synchronized (this) {
                queue.add(waiting);
            }
            sendWhileRoom();
            return Uni.createFrom().completionStage(waiting.answer());
        });
    }

    private void sendWhileRoom() {
        while (true) {
            List<Waiting<T, R>> batch = new ArrayList<>();
            synchronized (this) {
                if (inFlight >= maxInFlight || queue.isEmpty()) {
                    return;
                }
                while (batch.size() < maxBatch && !queue.isEmpty()) {
                    batch.add(queue.poll());
                }
                inFlight++;
            }
            send(batch);
        }
    }

    private void send(List<Waiting<T, R>> batch) {
        List<T> requests = batch.stream().map(Waiting::request).toList();
        Uni<List<R>> answers;
        try {
            answers = statement.apply(requests);
        } catch (RuntimeException e) {
            answers = Uni.createFrom().failure(e);
        }
        answers.subscribe().with(results -> {
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).complete(results.get(i));
            }
            done();
        }, failure -> {
            if (batch.size() == 1) {
                batch.get(0).fail(failure); // its own flow retries it (StepDispatcher)
                done();
                return;
            }
            // One request the database refuses (a value it cannot store, say) must not fail the steps it
            // was grouped with: each goes again on its own, and only the bad one fails.
            done();
            for (Waiting<T, R> waiting : batch) {
                alone(waiting);
            }
        });
    }

    private void alone(Waiting<T, R> waiting) {
        Uni<List<R>> answer;
        try {
            answer = statement.apply(List.of(waiting.request()));
        } catch (RuntimeException e) {
            answer = Uni.createFrom().failure(e);
        }
        answer.subscribe().with(results -> waiting.complete(results.get(0)), waiting::fail);
    }

    private void done() {
        synchronized (this) {
            inFlight--;
        }
        sendWhileRoom();
    }
}
