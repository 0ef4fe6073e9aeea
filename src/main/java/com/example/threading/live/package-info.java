/**
 * Infrastructure: a live page on the admin port, {@code GET /live}, that charts what the threading experiments look
 * at (threads per pool, requests in flight and queued, 503s, parked and blocked long-polls, the execution strategy's
 * modes, admission, GC), read once a second from the metric registry by the names the patterns' pages document.
 * Depends on no pattern package: it knows the patterns only by their metric names.
 *
 * <p>Threads: the bundle registers on the start-up thread; the page's files and numbers are served on the admin
 * connector's threads; the page itself keeps the history, in the browser.
 *
 * <p>Entry class: {@link com.example.threading.live.LiveBundle} ({@code bootstrap.addBundle(new LiveBundle())}). To
 * copy: the package, its resources, the webjar {@code org.webjars.npm:uplot}, and charts of your own metrics in
 * {@link com.example.threading.live.LiveCharts}. The page is docs/live.md.
 */
package com.example.threading.live;
