package com.example.threading.events.access;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.dropwizard.core.setup.Environment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code events.auth.type: open}: polls open to everyone, publishing under {@code events.publishToken}
 * ({@link OpenTopicAccess}). It has no settings of its own and ignores those of the other types, which a configuration
 * file may carry so that the type alone (e.g. from the environment) switches between them.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public final class OpenAccessFactory implements TopicAccessFactory {

    /** The value of {@code events.auth.type}. */
    public static final String TYPE = "open";

    private static final Logger LOG = LoggerFactory.getLogger(OpenAccessFactory.class);

    @Override
    public TopicAccess build(Environment environment, String publishToken) {
        PublishAccess publishing = new PublishAccess(publishToken);
        if (!publishing.requiresToken()) {
            LOG.info("No events.publishToken (EVENTS_PUBLISH_TOKEN) is set: POST {} accepts clients on this machine only",
                    "/events");
        }
        return new OpenTopicAccess(publishing);
    }
}
