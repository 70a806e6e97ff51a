package dev.agentarena.junit.engine.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ErrorTypeTest {

    @Test
    void anErrorTextStartingWithAnExceptionNamesItsClassAndAnyOtherIsOther() {
        assertThat(OtelRunTracer.errorType("java.net.SocketTimeoutException: connect timed out"))
                .isEqualTo("java.net.SocketTimeoutException");
        assertThat(OtelRunTracer.errorType("IllegalStateException")).isEqualTo("IllegalStateException");
        assertThat(OtelRunTracer.errorType("order service down")).isEqualTo("_OTHER");
        assertThat(OtelRunTracer.errorType("Exception handling failed: x")).isEqualTo("_OTHER");
        // hostile text ends quickly
        assertThat(OtelRunTracer.errorType("a.".repeat(100_000) + "!")).isEqualTo("_OTHER");
    }
}
