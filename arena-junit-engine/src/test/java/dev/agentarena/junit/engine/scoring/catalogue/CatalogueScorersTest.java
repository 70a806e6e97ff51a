package dev.agentarena.junit.engine.scoring.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.engine.scoring.TestScoringContext;

class CatalogueScorersTest {

    @Test
    void everyScorerIsAPublicStaticAnnotatedMethod() {
        List<Method> methods = Arrays.stream(CatalogueScorers.class.getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(Scorer.class)).collect(Collectors.toList());

        assertThat(methods).extracting(m -> m.getAnnotation(Scorer.class).value()).containsExactlyInAnyOrder(
                "required_facts", "json_shape", "within_tolerance", "no_leaks_or_refusals", "applies_when",
                "tool_calls", "trajectory", "tool_precision_recall", "trajectory_efficiency", "tool_success",
                "trajectory_judge");
        assertThat(methods).allMatch(m -> Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers()));
        // Parameters are matched by name: the build must keep them (-parameters).
        assertThat(methods.stream().flatMap(m -> Arrays.stream(m.getParameters())))
                .allMatch(java.lang.reflect.Parameter::isNamePresent);
    }

    @Test
    void requiredFactsGivesPartialCreditAndAbstainsWithoutFacts() {
        ScoreResult result = CatalogueScorers.requiredFacts("Refunds take 5 DAYS via the app.",
                Map.of("must_include", List.of("refund", "5 days", "bank", "email")));

        assertThat(result.score()).isEqualTo(0.5);
        assertThat(result.reason()).isEqualTo("2 of 4 facts; missing 'bank', 'email'");
        assertThat(result.detail()).containsEntry("missing", List.of("bank", "email"));
        assertThat(CatalogueScorers.requiredFacts("x", null).isScored()).isFalse();
        assertThat(CatalogueScorers.requiredFacts("x", Map.of("must_include", List.of())).reason())
                .isEqualTo("not applicable: scorer 'required_facts' needs expected {\"must_include\": [phrase, ...]},"
                        + " but expected is an object {\"must_include\":[]}");
        assertThat(CatalogueScorers.requiredFacts("Ünïcödé", Map.of("must_include", List.of("U\u0308NI\u0308CO\u0308DE\u0301")))
                .score()).isEqualTo(1.0);
    }

    @Test
    void jsonShapeChecksRequiredKeysOrReportsTheParseError() {
        Map<String, Object> expected = Map.of("keys", List.of("id", "status"));

        ScoreResult ok = CatalogueScorers.jsonShape("{\"id\": 1, \"status\": \"open\", \"x\": 0}", expected);
        ScoreResult missing = CatalogueScorers.jsonShape("{\"id\": 1}", expected);
        ScoreResult broken = CatalogueScorers.jsonShape("{\"id\": ", expected);
        ScoreResult array = CatalogueScorers.jsonShape("[1]", expected);

        assertThat(ok.passed()).isTrue();
        assertThat(ok.detail()).containsEntry("missing", List.of());
        assertThat(missing.score()).isZero();
        assertThat(missing.detail()).containsEntry("missing", List.of("status"));
        assertThat(broken.score()).isZero();
        assertThat(broken.detail()).containsKey("error");
        assertThat(broken.reason()).startsWith("output is not JSON: ");
        assertThat(array.reason()).isEqualTo("output is not a JSON object");
        assertThat(CatalogueScorers.jsonShape("{}", Map.of()).isScored()).isFalse();
    }

    @Test
    void withinToleranceIsRelativeWithTheToleranceFromMetadata() {
        TestScoringContext none = TestScoringContext.forScorer("within_tolerance");
        assertThat(CatalogueScorers.withinTolerance("101", 100, Map.of(), none).passed()).as("1% default").isTrue();
        assertThat(CatalogueScorers.withinTolerance("101.5", 100, Map.of(), none).passed()).isFalse();
        assertThat(CatalogueScorers.withinTolerance(" 110 ", 100.0, Map.of("tolerance", 0.1), none).passed()).isTrue();
        assertThat(CatalogueScorers.withinTolerance("110", "100", Map.of("tolerance", "0.05"), none).passed())
                .isFalse();
        ScoreResult words = CatalogueScorers.withinTolerance("about 100", 100, Map.of(), none);
        assertThat(words.score()).isZero();
        assertThat(words.reason()).isEqualTo("output 'about 100' is not a number");
        assertThat(CatalogueScorers.withinTolerance("NaN", 100, Map.of(), none).score()).isZero();
        assertThat(CatalogueScorers.withinTolerance("1", null, Map.of(), none).reason()).isEqualTo("not applicable:"
                + " scorer 'within_tolerance' needs expected a number, but the case has no expected value");
        assertThat(CatalogueScorers.withinTolerance("1", 1, null, none).passed()).isTrue();
        assertThatThrownBy(() -> CatalogueScorers.withinTolerance("1", 1, Map.of("tolerance", "wide"), none))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("wide");
    }

    @Test
    void withinToleranceTakesTheToleranceOptionWhenTheCaseMetadataHasNone() {
        TestScoringContext wide = TestScoringContext.forScorer("within_tolerance").with("tolerance", "0.1");

        assertThat(CatalogueScorers.withinTolerance("110", 100, Map.of(), wide).passed()).as("option").isTrue();
        assertThat(CatalogueScorers.withinTolerance("110", 100, Map.of("tolerance", 0.05), wide).passed())
                .as("metadata.tolerance is the case's own and wins").isFalse();
        assertThatThrownBy(() -> CatalogueScorers.withinTolerance("1", 1, Map.of(),
                TestScoringContext.forScorer("within_tolerance").with("tolerance", "-1")))
                .hasMessage("option 'tolerance' of scorer 'within_tolerance' must be a number >= 0, but was \"-1\"");
    }

    @Test
    void noLeaksOrRefusalsReturnsTwoNamedScores() {
        assertThat(CatalogueScorers.noLeaksOrRefusals("All good")).containsExactly(Map.entry("no_internal_ids", 1.0),
                Map.entry("no_refusal", 1.0));
        assertThat(CatalogueScorers.noLeaksOrRefusals("Customer cust_0a1b2c3d says hi"))
                .containsEntry("no_internal_ids", 0.0).containsEntry("no_refusal", 1.0);
        assertThat(CatalogueScorers.noLeaksOrRefusals("cust_0a1b2c3d4 is longer")).containsEntry("no_internal_ids", 1.0);
        assertThat(CatalogueScorers.noLeaksOrRefusals("Sorry, i CANNOT help with that"))
                .containsEntry("no_refusal", 0.0);
        assertThat(CatalogueScorers.noLeaksOrRefusals("I can\u2019t help, sorry")).containsEntry("no_refusal", 0.0);
        assertThat(CatalogueScorers.noLeaksOrRefusals("I'm unable to do that")).containsEntry("no_refusal", 0.0);
        assertThat(CatalogueScorers.noLeaksOrRefusals("")).containsEntry("no_refusal", 1.0);
    }

    @Test
    void appliesWhenAbstainsOutsideItsTopic() {
        TestScoringContext context = TestScoringContext.forScorer("applies_when").with("equals", "refunds")
                .with("must_contain", List.of("processed"));

        assertThat(CatalogueScorers.appliesWhen("anything", null, Map.of("topic", "billing"), context)).isNull();
        assertThat(CatalogueScorers.appliesWhen("anything", null, null, context)).isNull();
        assertThat(CatalogueScorers.appliesWhen("Your refund was PROCESSED", null, Map.of("topic", "refunds"),
                context).score()).isEqualTo(1.0);
        ScoreResult missing = CatalogueScorers.appliesWhen("We are on it", null, Map.of("topic", "refunds"), context);
        assertThat(missing.score()).isZero();
        assertThat(missing.reason()).isEqualTo("topic 'refunds': 0 of 1 phrases; missing 'processed'");
    }

    @Test
    void appliesWhenUsesAnotherKeyAndTheExpectedPhrases() {
        TestScoringContext context = TestScoringContext.forScorer("applies_when").with("metadata_key", "lang")
                .with("equals", List.of("de", "at"));

        ScoreResult result = CatalogueScorers.appliesWhen("Grüße und Danke", List.of("grüße", "bitte"),
                Map.of("lang", "at"), context);

        assertThat(result.score()).isEqualTo(0.5);
        assertThatThrownBy(() -> CatalogueScorers.appliesWhen("x", null, Map.of(),
                TestScoringContext.forScorer("applies_when"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'equals'");
        assertThatThrownBy(() -> CatalogueScorers.appliesWhen("x", null, Map.of("lang", "de"), context))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must_contain");
    }
}
