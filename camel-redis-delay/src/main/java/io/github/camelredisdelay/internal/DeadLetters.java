package io.github.camelredisdelay.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.camelredisdelay.RedisDelayConstants;

/**
 * Moves exhausted or unreadable messages to the dead-letter queue, an ordinary queue with its own hash tag (so
 * possibly on another cluster node). It writes to the dead-letter queue first and removes the original second:
 * a crash in between leaves a duplicate, never a loss; the message keeps its id, so the repeated move is a no-op.
 */
public final class DeadLetters {

    private final RedisQueue source;
    private final RedisQueue target;

    public DeadLetters(RedisQueue source, RedisQueue target) {
        this.source = source;
        this.target = target;
    }

    public String targetName() {
        return target.name();
    }

    /**
     * @param reason the last error, stored as header {@link RedisDelayConstants#LAST_ERROR}
     */
    public void move(Delivery delivery, String reason) {
        Envelope original;
        try {
            original = EnvelopeCodec.decode(delivery.envelope());
        } catch (CorruptEnvelopeException e) {
            // keep the undecodable bytes as the body, for whoever inspects the dead letter
            original = new Envelope(delivery.envelope(), Map.of());
        }
        Map<String, Object> headers = new LinkedHashMap<>(original.headers());
        headers.put(RedisDelayConstants.ORIGINAL_QUEUE, source.name());
        headers.put(RedisDelayConstants.LAST_ERROR, reason);
        byte[] envelope = EnvelopeCodec.encode(new Envelope(original.body(), headers));
        target.schedule(delivery.messageId(), envelope, DueTime.after(0), "keep");
        source.ack(List.of(delivery));
    }
}
