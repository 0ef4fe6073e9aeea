package com.example.threading.events.access;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.dropwizard.core.setup.Environment;

/**
 * The {@code events.auth} section: who may read and publish which topic, chosen by its {@code type} like
 * {@code events.stream}. {@code open} (the default, {@link OpenAccessFactory}) is built in; a policy with settings of
 * its own registers its type from its own bundle (e.g. {@code jwt}, from the {@code events.access.jwt} sub-package), so
 * this package needs nothing of it. An unknown {@code type} refuses to start, naming the known ones.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes(@JsonSubTypes.Type(value = OpenAccessFactory.class, name = OpenAccessFactory.TYPE))
public interface TopicAccessFactory {

    /**
     * Builds the policy and registers what it needs with {@code environment}; refuses to start (an exception whose
     * message names the key) when its settings cannot work.
     *
     * @param publishToken {@code events.publishToken} (null or blank when unset), which the {@code open} policy uses
     */
    TopicAccess build(Environment environment, String publishToken);
}
