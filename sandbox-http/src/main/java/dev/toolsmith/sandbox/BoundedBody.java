package dev.toolsmith.sandbox;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Reads a response body up to a limit and stops reading (cancels the stream) as soon as it is passed,
 * so an oversized or endless response costs at most the limit in memory.
 */
final class BoundedBody {

    /** The body went past the limit. */
    static final class TooLargeException extends RuntimeException {
        TooLargeException() {
            super("response body over the limit", null, false, false);
        }
    }

    private BoundedBody() {
    }

    static HttpResponse.BodyHandler<byte[]> handler(long maxBytes) {
        return info -> {
            OptionalLong declared = info.headers().firstValueAsLong("Content-Length");
            if (declared.isPresent() && declared.getAsLong() > maxBytes) {
                return new Subscriber(-1); // read nothing; the declared length already says it is too large
            }
            return new Subscriber(maxBytes);
        };
    }

    private static final class Subscriber implements HttpResponse.BodySubscriber<byte[]> {

        private final long maxBytes;
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private Flow.Subscription subscription;

        Subscriber(long maxBytes) {
            this.maxBytes = maxBytes;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            this.subscription = s;
            if (maxBytes < 0) {
                s.cancel();
                result.completeExceptionally(new TooLargeException());
                return;
            }
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            if (result.isDone()) {
                return;
            }
            for (ByteBuffer buffer : buffers) {
                int n = buffer.remaining();
                if (out.size() + (long) n > maxBytes) {
                    subscription.cancel();
                    result.completeExceptionally(new TooLargeException());
                    return;
                }
                byte[] chunk = new byte[n];
                buffer.get(chunk);
                out.write(chunk, 0, n);
            }
        }

        @Override
        public void onError(Throwable throwable) {
            result.completeExceptionally(throwable);
        }

        @Override
        public void onComplete() {
            result.complete(out.toByteArray());
        }
    }
}
