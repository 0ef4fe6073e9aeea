/**
 * Infrastructure shared by every pattern: one error body on every path and port,
 * {@code {"code":N,"message":"…"}} with {@code Content-Type: application/json}, whoever raises the error.
 *
 * <p>The pattern: Jetty answers some errors before the application sees the request (the HTTP parser's 400, 414,
 * 431, 505; a path it cannot decode), and answers others inside a servlet context ({@code sendError}, uncaught
 * exceptions, Dropwizard's 405); Dropwizard's bean validation answers {@code {"errors":[…]}}. Three hooks make them
 * all one shape: {@link com.example.threading.errors.JsonErrorHandler} on the Jetty {@code Server} (installed from
 * the server's starting event, because Dropwizard builds the server after {@code Application.run} and sets an HTML
 * handler of its own) and on the application and the admin servlet context, and
 * {@link com.example.threading.errors.ViolationsAsErrorMessage} for Jersey.
 * {@link com.example.threading.errors.EmptyErrorsAsJson} gives a body to the bare error statuses of Dropwizard's
 * admin tasks. {@link com.example.threading.errors.ErrorBody} is the body and the rule for its message (the reason
 * phrase for a server fault, never an exception class or a stack trace).
 *
 * <p>And quiet logs: {@link com.example.threading.errors.QuietClientFaults}, a logback turbo filter, turns the
 * WARN/ERROR events any client can cause at will (a reset connection while an answer is written, a duplicate
 * {@code Host}, a bad authority, a gzip body that does not inflate) into DEBUG lines;
 * {@link com.example.threading.errors.CountClientDisconnects}, a Jetty handler in front of all, counts the requests
 * whose client went away ({@link com.example.threading.errors.ClientGone} says which failures mean that) in
 * {@code http.client-disconnects}.
 *
 * <p>Threads: the error handlers run on whichever Jetty thread fails the request (a selector thread for a parser
 * error, a worker otherwise); the mapper and the filter on the thread that runs the resource or servlet; the turbo
 * filter on every thread that logs; the disconnect counter's listener on the thread that completes a request's
 * stream. None holds state but thread-safe meters.
 *
 * <p>Entry class: {@link com.example.threading.errors.JsonErrorsBundle}, a Dropwizard bundle added before the
 * patterns' ({@code bootstrap.addBundle(new JsonErrorsBundle())}). To copy: the package (Jetty 12.1 ee10,
 * Dropwizard 5); the page is docs/errors.md.
 */
package com.example.threading.errors;
