package com.example.threading;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.client.FanoutBundle;
import com.example.threading.events.longpoll.LongPollTransport;
import com.example.threading.work.WorkBundle;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The paths each pattern package owns, checked where the packages meet: client cannot import work, so its
 * default downstream is a literal that must name work's cached endpoint, and no two patterns may share a path.
 */
class PatternPathsTest {

    @Test
    void theFanoutsDefaultDownstreamIsTheWorkBundleCachedEndpoint() {
        assertThat(WorkBundle.PATTERNS).contains("cached");
        assertThat(FanoutBundle.SELF_DOWNSTREAM_PATH).isEqualTo(WorkBundle.PATH + "/cached");
    }

    @Test
    void theFilterPatternCoversEveryWorkEndpointAndNoOtherPatternsPath() {
        assertThat(WorkBundle.URL_PATTERN).isEqualTo(WorkBundle.PATH + "/*");
        List<String> others = List.of(FanoutBundle.PATH, LongPollTransport.PATH, LongPollTransport.BLOCKING_PATH);
        assertThat(others).noneMatch(path -> path.startsWith(WorkBundle.PATH + "/") || path.equals(WorkBundle.PATH));
        assertThat(others).doesNotHaveDuplicates().allMatch(path -> path.startsWith("/"));
    }
}
