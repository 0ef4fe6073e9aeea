package com.example.threading;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.client.ClientFanout;
import com.example.threading.longpoll.LongPoll;
import com.example.threading.work.WorkPatterns;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The paths each pattern package owns, checked where the packages meet: client cannot import work, so its
 * default downstream is a literal that must name work's cached endpoint, and no two patterns may share a path.
 */
class PatternPathsTest {

    @Test
    void theFanoutsDefaultDownstreamIsTheWorkPatternsCachedEndpoint() {
        assertThat(WorkPatterns.PATTERNS).contains("cached");
        assertThat(ClientFanout.SELF_DOWNSTREAM_PATH).isEqualTo(WorkPatterns.PATH + "/cached");
    }

    @Test
    void theFilterPatternCoversEveryWorkEndpointAndNoOtherPatternsPath() {
        assertThat(WorkPatterns.URL_PATTERN).isEqualTo(WorkPatterns.PATH + "/*");
        List<String> others = List.of(ClientFanout.PATH, LongPoll.PATH, LongPoll.BLOCKING_PATH);
        assertThat(others).noneMatch(path -> path.startsWith(WorkPatterns.PATH + "/") || path.equals(WorkPatterns.PATH));
        assertThat(others).doesNotHaveDuplicates().allMatch(path -> path.startsWith("/"));
    }
}
