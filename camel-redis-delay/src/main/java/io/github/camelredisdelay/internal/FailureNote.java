package io.github.camelredisdelay.internal;

/**
 * What is stored about a message's failed deliveries, in the {@code fail} hash and the stream field {@code f}:
 * {@code "<failed deliveries>:<last error>"}.
 *
 * @param failedDeliveries how many deliveries failed so far
 * @param lastError        the last one's error, {@code <exception class>: <message>}
 */
public record FailureNote(int failedDeliveries, String lastError) {

    /** The stored text. */
    public String text() {
        return failedDeliveries + ":" + lastError;
    }

    /**
     * @throws IllegalArgumentException when {@code text} is not a failure note
     */
    public static FailureNote parse(String text) {
        int separator = text.indexOf(':');
        if (separator < 0) {
            throw new IllegalArgumentException("failure note without ':': " + text);
        }
        return new FailureNote(Integer.parseInt(text.substring(0, separator)), text.substring(separator + 1));
    }
}
