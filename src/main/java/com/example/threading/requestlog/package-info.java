/**
 * Infrastructure: the request log ({@code server.requestLog.type: jetty}, {@link
 * com.example.threading.requestlog.JettyRequestLogFactory}), one line per request formatted by Jetty's
 * {@code CustomRequestLog} and written by {@link com.example.threading.requestlog.BurstWriter}'s one thread to
 * Dropwizard's appenders, and
 * {@link com.example.threading.requestlog.RequestLogBundle}, which counts the lines a full queue dropped in
 * {@code http.request-log.dropped}. No pattern depends on it.
 *
 * <p>Threads: a line is formatted on the thread that completes the request and queued without a lock; the writer's
 * thread ({@code request-log}), woken once per burst, writes every line queued by then.
 */
package com.example.threading.requestlog;
