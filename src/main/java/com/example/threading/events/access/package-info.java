/**
 * Who may read and publish which topic: the seam between the events endpoints and an access policy
 * ({@link com.example.threading.events.access.TopicAccess}: who is calling, from the request's head; its
 * {@link com.example.threading.events.access.TopicGrant}: which topics for which action, until when; an
 * {@link com.example.threading.events.access.AccessDecision}: admitted, or refused with a status). {@code events.auth}
 * chooses the policy through a {@link com.example.threading.events.access.TopicAccessFactory}: {@code open} is built in
 * ({@link com.example.threading.events.access.OpenTopicAccess}: subscriptions open, publishing under
 * {@code events.publishToken} or from this machine only, {@link com.example.threading.events.access.PublishAccess});
 * the
 * sub-package {@code jwt} adds a token's claims.
 *
 * <p>Threads: a policy is called concurrently from Jetty's request threads, before a request reaches the hub, and must
 * be thread-safe.
 */
package com.example.threading.events.access;
