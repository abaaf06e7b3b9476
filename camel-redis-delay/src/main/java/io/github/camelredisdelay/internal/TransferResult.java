package io.github.camelredisdelay.internal;

/**
 * The outcome of one transfer step.
 *
 * @param moved       messages moved to the ready stream
 * @param nextDelayMs ms until the next due message, 0 when more are due now, -1 when nothing is scheduled
 */
public record TransferResult(long moved, long nextDelayMs) {
}
