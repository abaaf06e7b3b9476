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

import java.util.ArrayList;
import java.util.List;

import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@code syncAof} run by the component's user: it needs {@code WAITAOF}, which Redis 7.2 and Valkey 8 have (the build
 * runs this class in the Valkey 8 pass only, as it does {@code SyncAofTest}); a server without it refuses to start with
 * a rule naming it, so the rules the guide adds for syncAof are granted here, not at start.
 */
class SyncAofAclTest extends SyncAclTestSupport {

    @Test
    void schedulesAndAcknowledgementsWaitingForAppendOnlyFilesRunUnderTheGuidesRules() throws Exception {
        SERVERS.master().command("ACL", "SETUSER", USER, ComponentAcl.SYNC_AOF_RULES);
        assertSyncedQueueWorks("syncReplicas=1&syncAof=true&syncTimeout=5s");
    }

    /**
     * On a server that has {@code WAITAOF}, a user not allowed it must be told so: the endpoint's start check used to
     * report that syncAof needs Redis 7.2 or later, sending the operator to upgrade a server that is new enough.
     */
    @Test
    void aWaitAofRefusedByTheAclFailsTheStartNamingThePermissionNotTheServersVersion() throws Exception {
        SERVERS.master().command("ACL", "SETUSER", USER, "-waitaof");

        Throwable failure = catchThrowable(() -> nodes.start(this::loggedIn, new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:refused?syncReplicas=1&syncAof=true").log("${body}");
            }
        }));

        assertThat(messages(failure)).as("the messages of the start's failure and its causes")
                .anySatisfy(message -> assertThat(message).contains("NOPERM").contains("'waitaof'"))
                .noneSatisfy(message -> assertThat(message).contains("needs Redis 7.2"));
        assertThat(AclLog.entries(SERVERS.master().command("ACL", "LOG"))).as("what was refused")
                .anyMatch(denial -> denial.contains("'waitaof'"));
        SERVERS.master().command("ACL", "LOG", "RESET");
    }

    private static List<String> messages(Throwable failure) {
        List<String> messages = new ArrayList<>();
        for (Throwable cause = failure; cause != null && messages.size() < 20; cause = cause.getCause()) {
            messages.add(String.valueOf(cause.getMessage()));
        }
        return messages;
    }
}
