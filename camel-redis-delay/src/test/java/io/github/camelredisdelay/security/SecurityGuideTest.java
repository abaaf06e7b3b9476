package io.github.camelredisdelay.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** Keeps docs/security.md telling users to grant exactly the ACL rules {@link AclTest} runs the component with. */
class SecurityGuideTest {

    /** Surefire runs in the module's directory; the guide is in the project's docs. */
    private static final Path GUIDE = Path.of("..", "docs", "security.md");

    @Test
    void guideGrantsTheRulesTheAclTestRunsWith() throws IOException {
        String guide = Files.readString(GUIDE, StandardCharsets.UTF_8);

        assertThat(guide).contains("ACL SETUSER camel-delay reset on >CHANGE-ME " + ComponentAcl.REDIS_7_RULES + "\n");
    }
}
