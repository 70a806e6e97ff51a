package dev.agentarena.junit.engine.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import org.junit.jupiter.api.Test;

/** The check runs on the Platform this build tests with; {@code OldJUnitPlatformIT} runs it on JUnit 5.12. */
class JUnitPlatformVersionTest {

    @Test
    void thisBuildsPlatformIsSupported() {
        assertThat(JUnitPlatformVersion.supported()).isTrue();
        assertThat(JUnitPlatformVersion.problem()).isEmpty();
    }

    @Test
    void theMessageNamesTheVersionsFoundAndTheOneLineFix() {
        assertThat(JUnitPlatformVersion.message("1.12.2", Optional.of("5.12.2")))
                .startsWith("Agent Arena needs JUnit Platform 1.14 or later (JUnit 5.14+ or JUnit 6), but this run "
                        + "has JUnit Platform 1.12.2 (JUnit Jupiter 5.12.2).")
                .contains("<junit-jupiter.version>5.14.4</junit-jupiter.version>", "org.junit:junit-bom:5.14.4");
        assertThat(JUnitPlatformVersion.message("1.12.2", Optional.empty())).doesNotContain("Jupiter");
    }
}
