package io.github.camelredisdelay.internal;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.UUID;

/**
 * Generates message ids: a random UUID written as 22 URL-safe characters, short because Redis keeps an id up to
 * three times per message.
 */
public final class MessageIds {

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    /** Longest message id accepted from a header. */
    public static final int MAX_LENGTH = 512;

    private MessageIds() {
    }

    public static String next() {
        UUID uuid = UUID.randomUUID();
        ByteBuffer bytes = ByteBuffer.allocate(16);
        bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
        return ENCODER.encodeToString(bytes.array());
    }
}
