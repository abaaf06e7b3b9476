package io.github.camelredisdelay.internal;

/**
 * Something that runs in the background for as long as any endpoint uses it (a transfer task, the wake channels of
 * a client), started by its first user and stopped after its last ({@link SharedRegistry}).
 */
public interface SharedService {

    /** Starts it; never waits for Redis. */
    void start();

    /** Stops it; what runs finishes in the background and nothing new starts. */
    void stop();
}
