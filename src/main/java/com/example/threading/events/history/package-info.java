/**
 * Each topic's memory: its ring of recent events ({@link com.example.threading.events.history.EventHistory}), the epoch
 * that names the history its ids count in, and what a poll's cursor
 * ({@link com.example.threading.events.history.TopicCursor}) reads there
 * ({@link com.example.threading.events.history.CursorReading}: news, wait, ask the archive, or unavailable). With a
 * shared stream, {@link com.example.threading.events.history.ArchivedCursors} reads the stream's archive for the
 * cursors a ring cannot answer. The answers' bodies are
 * {@link com.example.threading.events.history.EventBatch} (one topic) and
 * {@link com.example.threading.events.history.TopicsBatch} (several), made by
 * {@link com.example.threading.events.history.PollAnswer}. A client that follows its topics from one answer to the next
 * (an event stream, a socket) keeps its cursors in {@link com.example.threading.events.history.FollowedCursors}, which
 * reads each answer into events and the position after each.
 *
 * <p>Threads: a ring is guarded by the lock its owner (the hub) gives it; every method of a history is called with that
 * lock held; a client's followed cursors are its own, touched by one thread at a time. An archive read completes on
 * the archive's threads and hands the poll back to the hub. No HTTP, no container, no Dropwizard.
 */
package com.example.threading.events.history;
