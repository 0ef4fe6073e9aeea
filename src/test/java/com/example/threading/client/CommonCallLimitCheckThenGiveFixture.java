package com.example.threading.client;

/**
 * {@link CommonCallLimit} with a seeded bug, for {@link CommonCallLimitLincheckTest}: a place looks whether it was
 * given back, then marks it, in two steps, so two threads giving it back at once can both give it.
 */
final class CommonCallLimitCheckThenGiveFixture implements CommonCallLimitLincheckTest.Limit {

    private final CallPlaces places;

    CommonCallLimitCheckThenGiveFixture(int maxCalls) {
        this.places = new CallPlaces(maxCalls);
    }

    @Override
    public boolean tryAdmit(int n) {
        return places.tryTake(n);
    }

    @Override
    public Runnable place() {
        return new Runnable() {
            private volatile boolean given;

            @Override
            public void run() {
                if (!given) { // the bug: the look and the mark are two steps
                    given = true;
                    places.give(1);
                }
            }
        };
    }

    @Override
    public int inFlight() {
        return places.inUse();
    }
}
