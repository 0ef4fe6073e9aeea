package com.example.threading.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CallPlacesTest {

    @Test
    void takesAllOrNone() {
        CallPlaces places = new CallPlaces(10);

        assertThat(places.tryTake(7)).isTrue();
        assertThat(places.tryTake(4)).isFalse();
        assertThat(places.inUse()).isEqualTo(7);
        assertThat(places.tryTake(3)).isTrue();
        assertThat(places.inUse()).isEqualTo(10);

        places.give(7);
        assertThat(places.inUse()).isEqualTo(3);
        assertThat(places.tryTake(7)).isTrue();
    }

    @Test
    void neverTakesMoreThanItHoldsOrNothing() {
        CallPlaces places = new CallPlaces(5);

        assertThat(places.tryTake(6)).isFalse();
        assertThat(places.tryTake(0)).isFalse();
        assertThat(places.inUse()).isZero();
        assertThatThrownBy(() -> new CallPlaces(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
