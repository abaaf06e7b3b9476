package io.github.camelredisdelay.internal;

/**
 * A stored message that cannot be decoded: corrupt, or written in a format this version does not know.
 */
public class CorruptEnvelopeException extends IllegalArgumentException {

    public CorruptEnvelopeException(String message) {
        super(message);
    }

    public CorruptEnvelopeException(String message, Throwable cause) {
        super(message, cause);
    }
}
