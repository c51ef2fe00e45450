package dev.toolsmith.openapi.fetch;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse.BodySubscriber;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Collects a response body but gives up, cancelling the stream, as soon as it passes {@code maxBytes}
 * (or at once when the declared Content-Length is already too large): a 50 MB answer costs at most
 * {@code maxBytes} of memory and is never read to its end.
 */
final class CappedBodySubscriber implements BodySubscriber<byte[]> {

    /** Signals the cap internally; the fetcher turns it into a {@link FetchException}. */
    static final class TooLarge extends RuntimeException {
        TooLarge(String message) {
            super(message, null, false, false);
        }
    }

    private final long maxBytes;
    private final long declaredLength;
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private Flow.Subscription subscription;
    private volatile String tooLarge;

    /** Why the body was refused as too large, or null. */
    String tooLarge() {
        return tooLarge;
    }

    private void refuse(String why) {
        tooLarge = why;
        subscription.cancel();
        result.completeExceptionally(new TooLarge(why));
    }

    CappedBodySubscriber(long maxBytes, long declaredLength) {
        this.maxBytes = maxBytes;
        this.declaredLength = declaredLength;
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        if (declaredLength > maxBytes) {
            refuse("the document is " + declaredLength + " bytes (Content-Length), more than the limit of "
                    + maxBytes + " bytes");
            return;
        }
        s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        if (result.isDone()) {
            return;
        }
        for (ByteBuffer item : items) {
            int n = item.remaining();
            if (buffer.size() + (long) n > maxBytes) {
                refuse("the document is larger than the limit of " + maxBytes + " bytes (stopped reading after "
                        + (buffer.size() + n) + ")");
                return;
            }
            byte[] chunk = new byte[n];
            item.get(chunk);
            buffer.write(chunk, 0, n);
        }
    }

    @Override
    public void onError(Throwable throwable) {
        result.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
        result.complete(buffer.toByteArray());
    }
}
