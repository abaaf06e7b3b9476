package io.github.camelredisdelay.internal;

import org.redisson.api.stream.StreamMessageId;

/**
 * Parses stream entry ids ({@code <ms>-<seq>}) that come back from scripts as text.
 */
final class StreamIds {

    private StreamIds() {
    }

    static StreamMessageId parse(String id) {
        int dash = id.indexOf('-');
        return new StreamMessageId(Long.parseLong(id.substring(0, dash)), Long.parseLong(id.substring(dash + 1)));
    }
}
