package com.example.threading.events.hub;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/** A transport that counts the hub's own answers: a timeout's "nothing new" and a failure's completion. */
final class CountingDelivery implements Delivery {
    final AtomicInteger expired = new AtomicInteger();
    final AtomicInteger abandoned = new AtomicInteger();

    @Override
    public void attach(ParkedPoll poll) {
    }

    @Override
    public void offer(Answer answer, BooleanSupplier claim) {
        throw new AssertionError("no answer is offered in these scenarios");
    }

    @Override
    public void expire() {
        expired.incrementAndGet();
    }

    @Override
    public void abandon() {
        abandoned.incrementAndGet();
    }
}
