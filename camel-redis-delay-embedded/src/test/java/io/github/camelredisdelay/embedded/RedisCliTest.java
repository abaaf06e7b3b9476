package io.github.camelredisdelay.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RedisCliTest {

    @Test
    void missingRedisCliFailsNamingTheSearchPathAndHowToInstallIt(@TempDir Path emptyDir) {
        assertThatThrownBy(() -> RedisCli.find(emptyDir.toString()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("redis-cli is not on PATH (" + emptyDir + ")")
                .hasMessageContaining("apt-get install redis-tools");
    }

    @Test
    void redisCliIsFoundOnPath() {
        assertThat(RedisCli.onPath().path().getFileName()).hasToString("redis-cli");
    }
}
