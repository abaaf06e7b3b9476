package io.github.camelredisdelay.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

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
}
