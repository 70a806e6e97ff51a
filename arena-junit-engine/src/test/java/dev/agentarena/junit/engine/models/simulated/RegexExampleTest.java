package dev.agentarena.junit.engine.models.simulated;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RegexExampleTest {

    @ParameterizedTest
    @ValueSource(strings = {"\\b[A-Z]{3}-\\d{4}\\b", "^order #\\d+$", "(?i)refund(ed)?", "[^aeiou]+x",
            "(cat|dog)s? food", "\\w+@\\w+\\.com", "(?<year>\\d{4})-(?<month>0[1-9]|1[0-2])", "a.c\\.", "colou?r",
            "[\\d,]+ USD"})
    void producesAStringThePatternFinds(String regex) {
        assertThat(RegexExample.of(regex)).hasValueSatisfying(
                example -> assertThat(Pattern.compile(regex).matcher(example).find()).as(example).isTrue());
    }

    @ParameterizedTest
    @ValueSource(strings = {"(a)\\1b", "foo(?=bar)", "[unclosed"})
    void admitsWhatItCannotDo(String regex) {
        RegexExample.of(regex).ifPresent(
                example -> assertThat(Pattern.compile(regex).matcher(example).find()).as(example).isTrue());
    }
}
