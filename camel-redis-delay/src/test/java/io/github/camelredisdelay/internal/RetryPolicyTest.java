package io.github.camelredisdelay.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    @Test
    void delaysFollowTheScheduleAndTheLastOneRepeats() {
        RetryPolicy policy = new RetryPolicy(List.of(1000L, 5000L), 0);

        assertThat(policy.delayAfter(1)).hasValue(1000L);
        assertThat(policy.delayAfter(2)).hasValue(5000L);
        assertThat(policy.delayAfter(7)).hasValue(5000L);
    }

    @Test
    void messageIsExhaustedAfterMaxDeliveries() {
        RetryPolicy policy = new RetryPolicy(List.of(1000L), 3);

        assertThat(policy.delayAfter(2)).isPresent();
        assertThat(policy.delayAfter(3)).isEmpty();
    }
}
