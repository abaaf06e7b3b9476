package io.github.camelredisdelay.benchmark;

/** Where consumers of either side hand every delivered message. Called from many threads. */
interface MessageSink {

    /**
     * @param body              the payload, see {@link Payload}
     * @param intendedDueMillis when the queue was asked to deliver it, epoch ms
     */
    void received(String body, long intendedDueMillis);
}
