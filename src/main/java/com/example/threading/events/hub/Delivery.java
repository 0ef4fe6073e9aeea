package com.example.threading.events.hub;

import java.util.function.BooleanSupplier;

/**
 * The transport's side of one poll: how the hub's {@link Answer} reaches the client. The long-poll servlet's is
 * {@code AsyncDelivery} (a started {@code AsyncContext}, a non-blocking write); a test's records what it was given.
 *
 * <p>Thread-safety: the hub calls {@link #attach} once, before the poll is placed; then at most one of {@link #offer}
 * (whose {@code claim} decides at write time whether the answer is still this poll's), {@link #expire} and
 * {@link #abandon} leads to an answer, each called from any thread. The transport reports the poll's failure and
 * completion to the attached {@link ParkedPoll} from its own threads. {@code EventHubTest} checks it with a batch's
 * writes racing the polls' timeouts on two threads: each poll answered exactly once.
 */
public interface Delivery {

    /** Reports this request's failure and completion to {@code poll} from now on. */
    void attach(ParkedPoll poll);

    /** Writes {@code answer} once the client can take it, if {@code claim} still succeeds then; never blocks. */
    void offer(Answer answer, BooleanSupplier claim);

    /** The poll's deadline passed and the hub claimed it: answer "nothing new" (HTTP: 204) and complete. */
    void expire();

    /** The request failed and the hub claimed it: complete without an answer. */
    void abandon();
}
