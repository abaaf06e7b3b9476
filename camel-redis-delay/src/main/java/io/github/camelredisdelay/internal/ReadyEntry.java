package io.github.camelredisdelay.internal;

/**
 * An entry of a ready stream, as {@code dead-letters.lua} lists it.
 *
 * @param entryId   the stream entry id
 * @param messageId the message id
 * @param record    the record the entry holds ({@code record.lua})
 */
public record ReadyEntry(String entryId, String messageId, byte[] record) {
}
