package com.example.threading.client;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

class FanoutRunTest {

    @Test
    void poolIsTheThreadNameWithoutItsNumber() {
        assertThat(FanoutRun.poolOf("jersey-client-fanout-12")).isEqualTo("jersey-client-fanout-");
        assertThat(FanoutRun.poolOf("ForkJoinPool.commonPool-worker-3")).isEqualTo("ForkJoinPool.commonPool-worker-");
        assertThat(FanoutRun.poolOf("main")).isEqualTo("main");
    }

    @Test
    void errorKindNamesTheStatusOrTheUnderlyingCause() {
        assertThat(FanoutRun.kindOf(new CompletionException(new WebApplicationException(Response.status(503).build()))))
                .isEqualTo("HTTP 503");
        assertThat(FanoutRun.kindOf(new CompletionException(new ProcessingException(new SocketTimeoutException("Read timed out")))))
                .isEqualTo("SocketTimeoutException");
        assertThat(FanoutRun.kindOf(new RejectedExecutionException("full"))).isEqualTo("RejectedExecutionException");
    }
}
