/**
 * The service's threads as JDK 21+ shows them: on the admin port {@code GET /threads.json}, the JSON thread dump that
 * lists virtual threads with the executor or structured task scope that owns each (the classic {@code /threads} of
 * Dropwizard's menu shows platform threads only); and virtual threads' JFR events (pinned parks, failed submits),
 * streamed into metrics while the service runs. Infrastructure: no pattern needs it, and it needs no pattern.
 *
 * <p>The JDK 21 code is plain Java under {@code src/main/java21}, compiled with {@code --release 21} into the same
 * jar; {@link com.example.threading.threads.ThreadsBundle} loads it only on JDK 21+; on JDK 17 the path answers
 * {@code 501} saying so, and the JFR stream does not start.
 */
package com.example.threading.threads;
