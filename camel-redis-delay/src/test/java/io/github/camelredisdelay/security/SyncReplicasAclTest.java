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
package io.github.camelredisdelay.security;

import org.junit.jupiter.api.Test;

/**
 * {@code syncReplicas} run by the component's user with the rules the guide names for it: Redisson sends {@code WAIT}
 * after the writes, outside any script.
 */
class SyncReplicasAclTest extends SyncAclTestSupport {

    @Test
    void syncedSchedulesAndAcknowledgementsRunUnderTheGuidesRules() throws Exception {
        assertSyncedQueueWorks("syncReplicas=1&syncTimeout=5s");
    }
}
