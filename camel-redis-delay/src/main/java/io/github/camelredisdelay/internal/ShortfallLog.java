/*
 * Copyright The camel-redis-delay authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.github.camelredisdelay.internal;

import io.github.camelredisdelay.NotReplicatedException;
import org.slf4j.Logger;

/**
 * Logs that writes a failover may lose without harm (acknowledgements, with {@code syncReplicas}) reach fewer replicas
 * than asked: once when it starts and once when they reach them again, at most once a minute while it keeps flapping.
 * Redis answered each such write and applied it on the master, and none is sent again, so this is no outage: a failover
 * only delivers their messages again.
 */
final class ShortfallLog {

    private final Logger log;
    private final String what;
    /** Written under the lock, read without it by the common case of {@link #reached()}. */
    private volatile boolean falling;
    private boolean reported;
    private final ReportGate gate = new ReportGate();

    /**
     * @param what names the writes in the messages, e.g. "Acknowledgements on queue orders"
     */
    ShortfallLog(Logger log, String what) {
        this.log = log;
        this.what = what;
    }

    /** Records a write that reached too few replicas. */
    synchronized void fellShort(NotReplicatedException shortfall) {
        if (falling) {
            log.debug("{} still reach too few replicas: {}", what, shortfall.getMessage());
            return;
        }
        falling = true;
        reported = gate.admits();
        if (reported) {
            log.warn("{} reach too few replicas: Redis applies them on the master and they are not sent again, but a "
                     + "failover meanwhile would deliver their messages again: {}",
                    what, shortfall.getMessage());
        } else {
            log.debug("{} reach too few replicas again: {}", what, shortfall.getMessage());
        }
    }

    /** Records a write that reached its replicas. */
    void reached() {
        if (!falling) {
            return;
        }
        synchronized (this) {
            if (falling) {
                falling = false;
                if (reported) {
                    log.info("{} reach their replicas again", what);
                }
            }
        }
    }
}
