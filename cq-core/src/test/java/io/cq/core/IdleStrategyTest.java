package io.cq.core;

import io.cq.core.idle.BackoffIdleStrategy;
import io.cq.core.idle.IdleStrategy;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IdleStrategyTest {

    private static BackoffIdleStrategy backedOffToItsLongestPark() {
        BackoffIdleStrategy idle = new BackoffIdleStrategy(2, 1, Duration.ofNanos(1_000), Duration.ofNanos(4_000));
        for (int i = 0; i < 6; i++) {
            idle.idle(0);
        }
        return idle;
    }

    @Test
    void shouldBackOffToParkingWithADoublingPeriod() {
        BackoffIdleStrategy idle = new BackoffIdleStrategy(2, 1, Duration.ofNanos(1_000), Duration.ofNanos(4_000));
        for (int i = 0; i < 3; i++) {
            idle.idle(0);
        }
        assertThat(idle.currentParkNanos()).isEqualTo(1_000);
        idle.idle(0);
        assertThat(idle.currentParkNanos()).isEqualTo(2_000);
        idle.idle(0);
        idle.idle(0);
        assertThat(idle.currentParkNanos()).isEqualTo(4_000);
    }

    @Test
    void shouldStartTheBackOffOverAfterWork() {
        BackoffIdleStrategy idle = backedOffToItsLongestPark();
        assertThat(idle.currentParkNanos()).isEqualTo(4_000);
        idle.idle(1);
        assertThat(idle.currentParkNanos()).isEqualTo(1_000);
    }

    @Test
    void shouldNameEachStrategy() {
        assertThat(IdleStrategy.backoff().alias()).isEqualTo("backoff");
        assertThat(IdleStrategy.busySpin().alias()).isEqualTo("busy-spin");
        assertThat(IdleStrategy.yielding().alias()).isEqualTo("yielding");
        assertThat(IdleStrategy.sleeping(Duration.ofMillis(1)).alias()).isEqualTo("sleeping");
    }

    @Test
    void shouldRejectNonsenseSettings() {
        assertThatThrownBy(() -> IdleStrategy.sleeping(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("period=");
        assertThatThrownBy(() -> new BackoffIdleStrategy(1, 1, Duration.ofMillis(2), Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxPark");
    }
}
