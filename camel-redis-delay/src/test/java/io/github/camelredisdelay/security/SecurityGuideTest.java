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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps docs/security.md (and the README's copy of the grant) telling users to grant exactly the ACL rules
 * {@link AclTest} runs the component with, and those {@link MigrationAclTest} adds for a consumer that migrates an
 * RDelayedQueue.
 */
class SecurityGuideTest {

    /** Surefire runs in the module's directory; the guide is in the project's docs. */
    private static final Path GUIDE = Path.of("..", "docs", "security.md");
    private static final Path README = Path.of("..", "README.md");

    @Test
    void guideGrantsTheRulesTheAclTestRunsWith() throws IOException {
        String guide = Files.readString(GUIDE, StandardCharsets.UTF_8);

        assertThat(guide).contains("ACL SETUSER camel-delay reset on >CHANGE-ME " + ComponentAcl.REDIS_7_RULES + "\n");
    }

    @Test
    void readmeGrantsTheSameRules() throws IOException {
        String readme = Files.readString(README, StandardCharsets.UTF_8);

        assertThat(readme).contains("ACL SETUSER camel-delay reset on >CHANGE-ME " + ComponentAcl.REDIS_7_RULES + "\n");
    }

    @Test
    void guideGrantsWhatSyncReplicasAndSyncAofNeed() throws IOException {
        String guide = Files.readString(GUIDE, StandardCharsets.UTF_8);

        assertThat(guide).contains("ACL SETUSER camel-delay " + ComponentAcl.SYNC_REPLICAS_RULES + "\n")
                .contains("ACL SETUSER camel-delay " + ComponentAcl.SYNC_AOF_RULES + "\n");
    }

    @Test
    void guideGrantsAMigratingConsumerTheRulesTheMigrationAclTestAdds() throws IOException {
        String guide = Files.readString(GUIDE, StandardCharsets.UTF_8);

        assertThat(guide).contains("ACL SETUSER camel-delay " + ComponentAcl.migrationRulesFor("orders") + "\n");
    }
}
