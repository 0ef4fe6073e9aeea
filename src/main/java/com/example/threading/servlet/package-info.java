/**
 * Infrastructure shared by the patterns whose Jersey resources resume an {@code AsyncResponse}:
 * {@link com.example.threading.servlet.CompleteAsyncOnFailedWrite}, a servlet filter that completes an async
 * request whose answer could not be written (the client reset the connection), which Jersey 3.1 on Jetty 12.1
 * would otherwise leave in flight until the server stops.
 *
 * <p>Threads: the filter runs on the Jetty worker that dispatches the request; its stream is used by the thread
 * that writes the resumed answer (a pool thread of the pattern, or Jersey's timeout thread).
 *
 * <p>To copy: the class (Jakarta Servlet 6 only), mapped with {@code DispatcherType.REQUEST} on every path whose
 * resource resumes an {@code AsyncResponse}: a new such endpoint must be added to the mapping in the
 * application. The long-poll servlets complete their own requests and do not need it.
 */
package com.example.threading.servlet;
