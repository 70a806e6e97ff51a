package dev.agentarena.junit.engine.integration.versions;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code UnservedLibraryVersionEngineTest} runs the check with an older jackson-annotations jar. */
class JacksonVersionsTest {

    @Test
    void thisBuildsJacksonMatches() {
        assertThat(JacksonVersions.problem()).isEmpty();
    }

    @Test
    void olderAnnotationsAreNamedWithTheDatabindVersionAndTheBomToImport() {
        assertThat(JacksonVersions.problem("2.23.0", "2.23.0", "2.19.4")).get().asString()
                .startsWith("Agent Arena cannot run: the test class path has jackson-annotations 2.19.4, older than "
                        + "its jackson-databind 2.23.0")
                .contains("com.fasterxml.jackson:jackson-bom:2.23.0", "<dependencyManagement>")
                .doesNotContain("jackson-core");
    }

    @Test
    void olderCoreIsNamedToo() {
        assertThat(JacksonVersions.problem("2.23.0", "2.19.4", "2.19.4")).get().asString()
                .contains("jackson-annotations 2.19.4 and jackson-core 2.19.4, older than its jackson-databind 2.23.0");
        assertThat(JacksonVersions.problem("2.23.0", "2.22.3", "2.23")).get().asString()
                .contains("has jackson-core 2.22.3, older").doesNotContain("jackson-annotations");
    }

    @Test
    void theSameMinorOrNewerIsNoProblem() {
        // jackson-annotations has no patch version since 2.20
        assertThat(JacksonVersions.problem("2.23.0", "2.23.0", "2.23")).isEmpty();
        assertThat(JacksonVersions.problem("2.23.1", "2.23.0", "2.23")).isEmpty();
        assertThat(JacksonVersions.problem("2.19.4", "2.23.0", "2.23")).isEmpty();
        assertThat(JacksonVersions.problem("2.23.0-SNAPSHOT", "2.23.0", "3.0")).isEmpty();
    }

    @Test
    void versionsCompareByNumberNotByText() {
        assertThat(JacksonVersions.older("2.9.10", "2.23.0")).isTrue();
        assertThat(JacksonVersions.older("2.23", "2.9.10")).isFalse();
        assertThat(JacksonVersions.older("1.99", "2.0")).isTrue();
    }

    @Test
    void anUnreadableVersionIsNeverAtFault() {
        assertThat(JacksonVersions.problem("2.23.0", "2.23.0", null)).isEmpty();
        assertThat(JacksonVersions.problem("2.23.0", "2.23.0", "unknown")).isEmpty();
        assertThat(JacksonVersions.problem("2.23.0", "2.23.0", "")).isEmpty();
        assertThat(JacksonVersions.problem("2.23.0", "2.23.0", "99999999999.1")).isEmpty();
        assertThat(JacksonVersions.problem("0.0.0", "2.19.4", "2.19.4")).isEmpty();
    }

    @Test
    void aManifestsVersionIsShownCutAtItsFirstOddCharacter() {
        String hostile = "2.19.4\u0000\n\u001b[31m" + "x".repeat(100_000);
        assertThat(JacksonVersions.problem("2.23.0", "2.23.0", hostile)).get().asString()
                .contains("jackson-annotations 2.19.4, older").doesNotContain("\u0000", "\u001b", "xxx");
        assertThat(JacksonVersions.problem("2.23.0", "2.23.0", "2.19." + "9".repeat(10_000)).get().length())
                .isLessThan(1_000);
    }
}
