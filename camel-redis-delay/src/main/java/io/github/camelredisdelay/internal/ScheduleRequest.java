package io.github.camelredisdelay.internal;

/**
 * A message to schedule.
 *
 * @param id          the message id
 * @param envelope    the encoded message ({@link EnvelopeCodec})
 * @param due         when it becomes due
 * @param onDuplicate what to do when the id exists: {@code keep}, {@code replace} or {@code fail}
 */
public record ScheduleRequest(String id, byte[] envelope, DueTime due, String onDuplicate) {
}
