package io.github.camelredisdelay.internal;

import io.github.camelredisdelay.OnDuplicate;

/**
 * A message to schedule.
 *
 * @param id          the message id
 * @param envelope    the encoded message ({@link EnvelopeCodec})
 * @param due         when it becomes due
 * @param onDuplicate what to do when the id exists
 */
public record ScheduleRequest(String id, byte[] envelope, DueTime due, OnDuplicate onDuplicate) {
}
