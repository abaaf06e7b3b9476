package io.github.camelredisdelay.internal;

/**
 * The outcome of a schedule.
 *
 * @param scheduled {@code true} when stored; {@code false} when an existing message with the id was kept
 * @param dueAt     the stored due time (epoch ms, Redis clock), or -1 when a kept message is already ready or in
 *                  flight
 * @param now       Redis' time when the script ran
 */
public record ScheduleResult(boolean scheduled, long dueAt, long now) {
}
