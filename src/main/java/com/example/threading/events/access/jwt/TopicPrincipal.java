package com.example.threading.events.access.jwt;

import java.security.Principal;
import java.time.Instant;

/**
 * The caller a verified token names: its subject, the topics it may subscribe to and publish on (the token's
 * {@code events} claim), and the instant this server stops accepting the token (its {@code exp} plus the clock skew
 * allowed).
 *
 * @param name          the token's {@code sub}, or {@code "anonymous"} without one
 * @param subscribe     the topics it may read
 * @param publish       the topics it may publish on
 * @param acceptedUntil when the token stops being accepted: {@code exp} + {@code clockSkew}
 */
record TopicPrincipal(String name, TopicPatterns subscribe, TopicPatterns publish, Instant acceptedUntil) implements Principal {

    @Override
    public String getName() {
        return name;
    }
}
