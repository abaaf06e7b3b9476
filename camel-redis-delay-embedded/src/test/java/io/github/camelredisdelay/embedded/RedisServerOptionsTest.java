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
package io.github.camelredisdelay.embedded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RedisServerOptionsTest {

    @Test
    void defaultsPickAFreePortWithoutAppendOnlyFile() {
        RedisServerOptions defaults = RedisServerOptions.defaults();

        assertThat(defaults.port()).isZero();
        assertThat(defaults.appendOnly()).isFalse();
        assertThat(defaults.extraArgs()).isEmpty();
    }

    @Test
    void withMethodsChangeOneValueAndKeepTheOthers() {
        RedisServerOptions options = RedisServerOptions.defaults()
                .withPort(7000)
                .withAppendOnly(true)
                .withExtraArgs("--maxmemory", "10mb");

        assertThat(options).isEqualTo(new RedisServerOptions(7000, true, List.of("--maxmemory", "10mb")));
    }

    @Test
    void extraArgsAreCopiedSoLaterChangesDoNotLeakIn() {
        List<String> args = new ArrayList<>(List.of("--maxmemory", "10mb"));
        RedisServerOptions options = new RedisServerOptions(0, false, args);

        args.add("--oops");

        assertThat(options.extraArgs()).containsExactly("--maxmemory", "10mb");
    }

    @Test
    void portOutsideTheTcpRangeIsRejected() {
        assertThatThrownBy(() -> RedisServerOptions.defaults().withPort(65536))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("65536");
    }

    @Test
    void environmentIsAddedToAndReplacesVariablesOfTheSameName() {
        RedisServerOptions options = RedisServerOptions.defaults()
                .withEnvironment(Map.of("A", "1", "B", "2"))
                .withEnvironment(Map.of("B", "3"))
                .withPort(7000);

        assertThat(options.environment()).isEqualTo(Map.of("A", "1", "B", "3"));
        assertThat(RedisServerOptions.defaults().environment()).isEmpty();
    }

    @Test
    @Tag("clock-skew")
    void clockOffsetRunsTheServerUnderLibfaketimeWithTheOffsetInSeconds() {
        RedisServerOptions ahead = RedisServerOptions.defaults().withClockOffset(Duration.ofHours(1));
        RedisServerOptions behind = RedisServerOptions.defaults().withClockOffset(Duration.ofMinutes(-90));

        assertThat(ahead.environment()).containsEntry("FAKETIME", "+3600")
                .containsEntry("FAKETIME_DONT_FAKE_MONOTONIC", "1");
        assertThat(ahead.environment().get("LD_PRELOAD")).contains("libfaketime.so.1");
        assertThat(behind.environment()).containsEntry("FAKETIME", "-5400");
    }

    @Test
    void clockOffsetOfAFractionOfASecondIsRejected() {
        assertThatThrownBy(() -> RedisServerOptions.defaults().withClockOffset(Duration.ofMillis(1500)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT1.5S");
    }
}
