package io.github.camelredisdelay;

import java.util.concurrent.atomic.AtomicBoolean;

import io.github.camelredisdelay.internal.Delivery;
import org.apache.camel.Exchange;
import org.apache.camel.spi.Synchronization;

/**
 * Hands the outcome of a delivered message's exchange to its {@link Settlement}.
 */
final class DeliveryCompletion implements Synchronization {

    private final Delivery delivery;
    private final Settlement settlement;
    private final AtomicBoolean fired = new AtomicBoolean();

    DeliveryCompletion(Delivery delivery, Settlement settlement) {
        this.delivery = delivery;
        this.settlement = settlement;
    }

    /** Whether the exchange completed, successfully or not. */
    boolean fired() {
        return fired.get();
    }

    @Override
    public void onComplete(Exchange exchange) {
        fired.set(true);
        settlement.succeeded(delivery);
    }

    @Override
    public void onFailure(Exchange exchange) {
        fired.set(true);
        settlement.failed(delivery, exchange.getException());
    }
}
