package io.github.camelredisdelay.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Names consumers in a queue's consumer group: host, process id and a random suffix, so every consumer instance
 * has a name of its own and an operator can tell where a lease is held.
 */
public final class ConsumerNames {

    private ConsumerNames() {
    }

    public static String unique() {
        return host() + "-" + ProcessHandle.current().pid() + "-" + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36);
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host";
        }
    }
}
