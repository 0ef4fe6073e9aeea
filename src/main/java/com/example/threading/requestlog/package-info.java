/**
 * Infrastructure: the request log ({@code server.requestLog.type: jetty}, {@link
 * com.example.threading.requestlog.JettyRequestLogFactory}), one line per request formatted by Jetty's
 * {@code CustomRequestLog} and written by Dropwizard's asynchronous appenders, and
 * {@link com.example.threading.requestlog.RequestLogBundle}, which counts the lines a full queue dropped in
 * {@code http.request-log.dropped}. No pattern depends on it.
 *
 * <p>Threads: a line is formatted on the thread that completes the request and queued; the appender's thread writes
 * it.
 */
package com.example.threading.requestlog;
