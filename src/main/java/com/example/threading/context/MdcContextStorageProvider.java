package com.example.threading.context;

import io.opentelemetry.context.ContextStorage;
import io.opentelemetry.context.ContextStorageProvider;

/**
 * Gives OpenTelemetry its context storage with the MDC kept in step ({@link MdcContextStorage}): listed in
 * {@code META-INF/services/io.opentelemetry.context.ContextStorageProvider}, so it is the storage from the first use of a
 * {@code Context} on, in whatever order the application's parts start.
 */
public final class MdcContextStorageProvider implements ContextStorageProvider {

    @Override
    public ContextStorage get() {
        return new MdcContextStorage(ContextStorage.defaultStorage());
    }
}
