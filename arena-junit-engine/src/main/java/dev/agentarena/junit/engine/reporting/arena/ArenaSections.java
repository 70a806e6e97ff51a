package dev.agentarena.junit.engine.reporting.arena;

import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.apiguardian.api.API;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What the leaderboard shows of the judges beside the per-case scores, per eval: the arena of an {@code @Arena} eval
 * and the biases of its per-output judge. Kept apart from the per-case aggregates, in sections (and JSON keys) of their
 * own: {@code arena} and {@code judgeBias}; and the attack success rates of a red-team eval ({@code redTeam}).
 *
 * @param arenas by eval name
 * @param biases by eval name
 * @param attacks by red-team eval name
 * @param reportPage the run's {@code report.html} from the leaderboard page, {@code ""} to link to none
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record ArenaSections(Map<String, ArenaTable> arenas, Map<String, JudgeBiasTally.JudgeBias> biases,
        Map<String, AttackTally.AttackRates> attacks, String reportPage) {

    /** No arena and no judge. */
    public static final ArenaSections NONE = new ArenaSections(Map.of(), Map.of());

    /** Freezes the maps. */
    public ArenaSections {
        arenas = Map.copyOf(arenas);
        biases = Map.copyOf(biases);
        attacks = Map.copyOf(attacks);
        reportPage = reportPage == null ? "" : reportPage;
    }

    /** Sections that link to no report. */
    public ArenaSections(Map<String, ArenaTable> arenas, Map<String, JudgeBiasTally.JudgeBias> biases,
            Map<String, AttackTally.AttackRates> attacks) {
        this(arenas, biases, attacks, "");
    }

    /** Sections without red-team rates. */
    public ArenaSections(Map<String, ArenaTable> arenas, Map<String, JudgeBiasTally.JudgeBias> biases) {
        this(arenas, biases, Map.of());
    }

    /** The same sections, whose HTML links a red team's proven attacks to the report at that path from the page. */
    public ArenaSections linkingTo(String reportPage) {
        return new ArenaSections(arenas, biases, attacks, reportPage);
    }

    /** The attack success rates of a red-team eval. */
    public Optional<AttackTally.AttackRates> attacks(String eval) {
        return Optional.ofNullable(attacks.get(eval));
    }

    /** The eval's arena, if it has one. */
    public Optional<ArenaTable> arena(String eval) {
        return Optional.ofNullable(arenas.get(eval));
    }

    /** The eval's judge biases, if a judge scored its outputs. */
    public Optional<JudgeBiasTally.JudgeBias> bias(String eval) {
        return Optional.ofNullable(biases.get(eval));
    }

    /** Adds the eval's {@code arena} and {@code judgeBias} objects to its object of {@code leaderboard.json}. */
    public void addJson(String eval, ObjectNode node) {
        arena(eval).ifPresent(arena -> node.set("arena", arena.toJson()));
        bias(eval).ifPresent(bias -> node.set("judgeBias", bias.toJson()));
        attacks(eval).ifPresent(attacks -> node.set("redTeam", attacks.toJson()));
    }

    /** The eval's sections of the console table; empty without any. */
    public String console(String eval) {
        return arena(eval).map(ArenaTable::toConsole).orElse("") + bias(eval).map(b -> b.toConsole()).orElse("")
                + attacks(eval).map(AttackTally.AttackRates::toConsole).orElse("");
    }

    /** The eval's sections of {@code leaderboard.html}; empty without any. */
    public String html(String eval, UnaryOperator<String> escape) {
        return arena(eval).map(arena -> arena.toHtml(escape)).orElse("")
                + bias(eval).map(bias -> bias.toHtml(escape)).orElse("")
                + attacks(eval).map(attacks -> attacks.toHtml(escape, reportPage)).orElse("");
    }
}
