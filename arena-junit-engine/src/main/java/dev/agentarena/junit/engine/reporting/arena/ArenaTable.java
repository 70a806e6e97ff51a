package dev.agentarena.junit.engine.reporting.arena;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.apiguardian.api.API;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.reporting.statistics.BradleyTerry;
import dev.agentarena.junit.engine.results.Money;

/**
 * One eval's arena as the leaderboard shows it: per model its Bradley-Terry rating (plain and length-controlled)
 * with 95% bootstrap intervals and its wins, ties and losses; per pair the counts; and the judge's biases measured
 * on the comparisons (position, length, self-preference), with the warnings they call for.
 *
 * @param eval the eval's name
 * @param judge the judge's model key
 * @param models per model, best plain rating first
 * @param pairs per pair of models, in the eval's model order
 * @param bias the judge's biases
 * @param comparisons comparisons with both verdicts
 * @param errors comparisons whose judge failed (a call threw, or its verdict did not parse, or the budget was spent)
 * @param budgetStopped of the errors, those the spent budget ({@code arena.budget.usd}) stopped before a judge call
 * @param notCompared comparisons left out because a model had no output
 * @param resamples the bootstrap's resamples
 * @param costUsd what the judge calls cost
 * @param warnings what a reader should know before trusting the ratings
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record ArenaTable(String eval, String judge, List<ModelRating> models, List<Pair> pairs, Bias bias,
        long comparisons, long errors, long budgetStopped, long notCompared, int resamples, double costUsd,
        List<String> warnings) {

    /** Ties added to every compared pair before fitting, so that a model that always wins gets a finite rating. */
    public static final double PRIOR_TIES = 1.0;

    /** A flip rate above this is warned of. */
    static final double FLIP_WARNING = 0.2;
    /** A first-position win rate this far from one half (with enough verdicts) is warned of. */
    static final double FIRST_POSITION_WARNING = 0.1;
    /** Verdicts needed before the first-position rate is warned of. */
    static final long MIN_VERDICTS = 20;

    /** Freezes the lists. */
    public ArenaTable {
        models = List.copyOf(models);
        pairs = List.copyOf(pairs);
        warnings = List.copyOf(warnings);
    }

    /**
     * A model's row.
     *
     * @param rating Elo-scaled Bradley-Terry rating, 1000 the geometric mean strength
     * @param lengthControlled the rating with the length covariate, as two answers of equal length would have it
     */
    public record ModelRating(String model, double rating, double low, double high, double lengthControlled,
            double lengthControlledLow, double lengthControlledHigh, long wins, long ties, long losses) {

        /** Wins plus half the ties, over the comparisons; {@code NaN} with none. */
        public double winRate() {
            long n = wins + ties + losses;
            return n == 0 ? Double.NaN : (wins + ties / 2.0) / n;
        }
    }

    /** The comparisons of one pair: A's wins, ties, B's wins, verdicts that flipped with the order, errors. */
    public record Pair(String modelA, String modelB, long aWins, long ties, long bWins, long flips, long compared,
            long errors, long notCompared) {
    }

    /** Of every single verdict that preferred an answer, how many preferred the one shown first. */
    public record Positions(long firstWins, long decisive) {

        /** The first position's win rate; {@code NaN} without a decisive verdict. */
        public double rate() {
            return decisive == 0 ? Double.NaN : (double) firstWins / decisive;
        }
    }

    /**
     * The judge's biases on the comparisons.
     *
     * @param flipRate the share of comparisons whose verdict flipped with the order
     * @param flips how many flipped
     * @param positions the first position's wins among decisive verdicts
     * @param longerWinRate of the comparisons won by an answer of another length than its rival's, the share won by
     *        the longer one
     * @param lengthDecided how many such comparisons
     * @param lengthCoefficient γ of the length-controlled fit: log-odds a answer gains per unit of length difference
     * @param lengthCoefficientLow its 95% interval
     * @param lengthCoefficientHigh its 95% interval
     * @param selfPreference the judge's own win rate, when it is one of the compared models; {@code NaN} otherwise
     */
    public record Bias(double flipRate, long flips, Positions positions, double longerWinRate, long lengthDecided,
            double lengthCoefficient, double lengthCoefficientLow, double lengthCoefficientHigh,
            double selfPreference) {
    }

    static ArenaTable of(String eval, String judge, List<String> models, List<Pair> pairs, BradleyTerry.Rated plain,
            BradleyTerry.Rated controlled, Positions positions, long longerWins, long lengthDecided, double costUsd,
            long budgetStopped, String budgetReason) {
        List<ModelRating> rows = new ArrayList<>();
        for (int i = 0; i < models.size(); i++) {
            String model = models.get(i);
            long wins = 0;
            long ties = 0;
            long losses = 0;
            for (Pair pair : pairs) {
                if (pair.modelA().equals(model)) {
                    wins += pair.aWins();
                    losses += pair.bWins();
                    ties += pair.ties();
                }
                else if (pair.modelB().equals(model)) {
                    wins += pair.bWins();
                    losses += pair.aWins();
                    ties += pair.ties();
                }
            }
            rows.add(new ModelRating(model, BradleyTerry.rating(plain.fit().theta()[i]), plain.low()[i],
                    plain.high()[i], BradleyTerry.rating(controlled.fit().theta()[i]), controlled.low()[i],
                    controlled.high()[i], wins, ties, losses));
        }
        rows.sort(Comparator.comparingDouble(ModelRating::rating).reversed());
        long compared = pairs.stream().mapToLong(Pair::compared).sum();
        long flips = pairs.stream().mapToLong(Pair::flips).sum();
        long errors = pairs.stream().mapToLong(Pair::errors).sum();
        long notCompared = pairs.stream().mapToLong(Pair::notCompared).sum();
        double selfPreference = rows.stream().filter(row -> row.model().equals(judge)).findFirst()
                .map(ModelRating::winRate).orElse(Double.NaN);
        Bias bias = new Bias(compared == 0 ? Double.NaN : (double) flips / compared, flips, positions,
                lengthDecided == 0 ? Double.NaN : (double) longerWins / lengthDecided, lengthDecided,
                controlled.fit().gamma(), controlled.gammaLow(), controlled.gammaHigh(), selfPreference);
        List<String> warnings = new ArrayList<>();
        if (compared > 0 && bias.flipRate() > FLIP_WARNING) {
            warnings.add(String.format(Locale.ROOT, "position bias: the verdict flipped with the order of the "
                    + "answers in %d of %d comparisons (%.0f%%); those count as ties", flips, compared,
                    100 * bias.flipRate()));
        }
        if (positions.decisive() >= MIN_VERDICTS && Math.abs(positions.rate() - 0.5) > FIRST_POSITION_WARNING) {
            warnings.add(String.format(Locale.ROOT, "position bias: the answer shown first won %.0f%% of %d decisive "
                    + "verdicts (an unbiased judge: about 50%%)", 100 * positions.rate(), positions.decisive()));
        }
        if (!Double.isNaN(bias.lengthCoefficientLow()) && (bias.lengthCoefficientLow() > 0
                || bias.lengthCoefficientHigh() < 0)) {
            warnings.add(String.format(Locale.ROOT, "verbosity bias: the %s answer wins more often, length alone "
                    + "(length coefficient %.2f, 95%% interval [%.2f, %.2f]); see the length-controlled ratings",
                    bias.lengthCoefficient() > 0 ? "longer" : "shorter", bias.lengthCoefficient(),
                    bias.lengthCoefficientLow(), bias.lengthCoefficientHigh()));
        }
        if (models.contains(judge)) {
            warnings.add(String.format(Locale.ROOT, "self-preference: the judge %s is one of the compared models "
                    + "(its win rate as judged by itself: %.2f); judge with another model to trust its rating",
                    judge, selfPreference));
        }
        if (errors > budgetStopped) {
            long failed = errors - budgetStopped;
            warnings.add(failed + " comparison" + (failed == 1 ? "" : "s") + " of " + (compared + errors)
                    + " had no verdict from the judge (a failed call or an unparseable verdict): errors, left out "
                    + "of the ratings");
        }
        if (budgetStopped > 0) {
            warnings.add(budgetStopped + " comparison" + (budgetStopped == 1 ? "" : "s") + " of "
                    + (compared + errors) + " not asked: " + budgetReason + ": errors, left out of the ratings, "
                    + "each in arena-comparisons.jsonl; raise the budget or compare fewer cases");
        }
        if (notCompared > 0) {
            warnings.add(notCompared + " comparison" + (notCompared == 1 ? "" : "s")
                    + " left out: a model had no output for the case");
        }
        return new ArenaTable(eval, judge, rows, pairs, bias, compared, errors, budgetStopped, notCompared,
                plain.resamples(), costUsd, warnings);
    }

    /** The arena as the {@code arena} object of an eval in {@code leaderboard.json}. */
    public ObjectNode toJson() {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("judge", judge);
        node.put("comparisons", comparisons);
        node.put("errors", errors);
        node.put("notAskedBudgetSpent", budgetStopped);
        node.put("notCompared", notCompared);
        node.put("priorTies", PRIOR_TIES);
        node.put("bootstrapResamples", resamples);
        // rounded: a sum of many small costs differs in its last digits with the order it was added in (shards)
        node.put("judgeCostUsd", Math.round(costUsd * 1e10) / 1e10);
        ArrayNode ratings = node.putArray("models");
        int rank = 0;
        for (ModelRating model : models) {
            ObjectNode row = ratings.addObject();
            row.put("rank", ++rank);
            row.put("model", model.model());
            number(row, "rating", model.rating());
            ArrayNode interval = row.putArray("ratingCi");
            interval.add(Json.MAPPER.valueToTree(finite(model.low())));
            interval.add(Json.MAPPER.valueToTree(finite(model.high())));
            number(row, "lengthControlledRating", model.lengthControlled());
            ArrayNode lcInterval = row.putArray("lengthControlledRatingCi");
            lcInterval.add(Json.MAPPER.valueToTree(finite(model.lengthControlledLow())));
            lcInterval.add(Json.MAPPER.valueToTree(finite(model.lengthControlledHigh())));
            row.put("wins", model.wins());
            row.put("ties", model.ties());
            row.put("losses", model.losses());
            number(row, "winRate", model.winRate());
        }
        ArrayNode pairRows = node.putArray("pairs");
        for (Pair pair : pairs) {
            ObjectNode row = pairRows.addObject();
            row.put("modelA", pair.modelA());
            row.put("modelB", pair.modelB());
            row.put("aWins", pair.aWins());
            row.put("ties", pair.ties());
            row.put("bWins", pair.bWins());
            row.put("flips", pair.flips());
            row.put("errors", pair.errors());
            row.put("notCompared", pair.notCompared());
        }
        ObjectNode biasNode = node.putObject("bias");
        number(biasNode, "positionFlipRate", bias.flipRate());
        biasNode.put("positionFlips", bias.flips());
        number(biasNode, "firstPositionWinRate", bias.positions().rate());
        biasNode.put("decisiveVerdicts", bias.positions().decisive());
        number(biasNode, "longerAnswerWinRate", bias.longerWinRate());
        biasNode.put("lengthDecided", bias.lengthDecided());
        number(biasNode, "lengthCoefficient", bias.lengthCoefficient());
        ArrayNode gamma = biasNode.putArray("lengthCoefficientCi");
        gamma.add(Json.MAPPER.valueToTree(finite(bias.lengthCoefficientLow())));
        gamma.add(Json.MAPPER.valueToTree(finite(bias.lengthCoefficientHigh())));
        number(biasNode, "selfPreferenceWinRate", bias.selfPreference());
        ArrayNode warningNodes = node.putArray("warnings");
        warnings.forEach(warningNodes::add);
        return node;
    }

    /** The arena's plain-text table, for the console. */
    public String toConsole() {
        StringBuilder out = new StringBuilder();
        out.append("  arena (pairwise, judge ").append(judge).append(", ").append(comparisons)
                .append(" comparisons, both orders, judge cost ").append(Money.usd(costUsd))
                .append("; Bradley-Terry, Elo scale, 95% bootstrap CI)\n");
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"#", "model", "rating", "95% CI", "length-controlled", "W", "T", "L", "win rate"});
        int rank = 0;
        for (ModelRating model : models) {
            rows.add(new String[] {String.valueOf(++rank), model.model(), fixed(model.rating(), 0),
                    "[" + fixed(model.low(), 0) + ", " + fixed(model.high(), 0) + "]",
                    fixed(model.lengthControlled(), 0) + " [" + fixed(model.lengthControlledLow(), 0) + ", "
                            + fixed(model.lengthControlledHigh(), 0) + "]",
                    String.valueOf(model.wins()), String.valueOf(model.ties()), String.valueOf(model.losses()),
                    fixed(model.winRate(), 3)});
        }
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int c = 0; c < row.length; c++) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder("   ");
            for (int c = 0; c < row.length; c++) {
                line.append(' ').append(String.format(Locale.ROOT, "%-" + widths[c] + "s", row[c]));
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        for (Pair pair : pairs) {
            out.append("    ").append(pair.modelA()).append(" vs ").append(pair.modelB()).append(": ")
                    .append(pair.aWins()).append(" wins, ").append(pair.ties()).append(" ties, ")
                    .append(pair.bWins()).append(" losses");
            if (pair.flips() > 0) {
                out.append(" (").append(pair.flips()).append(" flipped with the order)");
            }
            if (pair.errors() > 0) {
                out.append(", ").append(pair.errors()).append(" errors");
            }
            out.append('\n');
        }
        out.append(String.format(Locale.ROOT, "    judge bias: order flipped %s of comparisons, first position won "
                + "%s of decisive verdicts, longer answer won %s, length coefficient %s%n",
                percent(bias.flipRate()), percent(bias.positions().rate()), percent(bias.longerWinRate()),
                fixed(bias.lengthCoefficient(), 2)));
        for (String warning : warnings) {
            out.append("    warning: ").append(warning).append('\n');
        }
        return out.toString();
    }

    /** The arena's section of {@code leaderboard.html}; text escaped by {@code escape}. */
    public String toHtml(java.util.function.UnaryOperator<String> escape) {
        StringBuilder html = new StringBuilder();
        html.append("<h3>Arena</h3>\n<p>Pairwise comparisons by judge <code>").append(escape.apply(judge))
                .append("</code>, each case in both orders: ").append(comparisons)
                .append(" comparisons, judge cost ").append(Money.usd(costUsd)).append(". Bradley-Terry ratings on the Elo scale (1000 = the geometric mean), 95% "
                        + "bootstrap intervals.</p>\n<table>\n<tr><th>#</th><th>Model</th><th>Rating</th>"
                        + "<th>95% CI</th><th>Length-controlled</th><th>W</th><th>T</th><th>L</th>"
                        + "<th>Win rate</th></tr>\n");
        int rank = 0;
        for (ModelRating model : models) {
            html.append("<tr><td>").append(++rank).append("</td><td>").append(escape.apply(model.model()))
                    .append("</td><td>").append(fixed(model.rating(), 0)).append("</td><td>[")
                    .append(fixed(model.low(), 0)).append(", ").append(fixed(model.high(), 0)).append("]</td><td>")
                    .append(fixed(model.lengthControlled(), 0)).append(" [")
                    .append(fixed(model.lengthControlledLow(), 0)).append(", ")
                    .append(fixed(model.lengthControlledHigh(), 0)).append("]</td><td>").append(model.wins())
                    .append("</td><td>").append(model.ties()).append("</td><td>").append(model.losses())
                    .append("</td><td>").append(fixed(model.winRate(), 3)).append("</td></tr>\n");
        }
        html.append("</table>\n<table>\n<tr><th>Pair</th><th>A wins</th><th>Ties</th><th>B wins</th>"
                + "<th>Flipped</th><th>Errors</th></tr>\n");
        for (Pair pair : pairs) {
            html.append("<tr><td>").append(escape.apply(pair.modelA() + " vs " + pair.modelB())).append("</td><td>")
                    .append(pair.aWins()).append("</td><td>").append(pair.ties()).append("</td><td>")
                    .append(pair.bWins()).append("</td><td>").append(pair.flips()).append("</td><td>")
                    .append(pair.errors()).append("</td></tr>\n");
        }
        html.append("</table>\n<p>Judge bias: the verdict flipped with the order in ").append(percent(bias.flipRate()))
                .append(" of comparisons; the first position won ").append(percent(bias.positions().rate()))
                .append(" of decisive verdicts; the longer answer won ").append(percent(bias.longerWinRate()))
                .append("; length coefficient ").append(fixed(bias.lengthCoefficient(), 2)).append(".</p>\n");
        if (!warnings.isEmpty()) {
            html.append("<ul class=\"warnings\">\n");
            for (String warning : warnings) {
                html.append("<li>").append(escape.apply(warning)).append("</li>\n");
            }
            html.append("</ul>\n");
        }
        return html.toString();
    }

    private static void number(ObjectNode node, String field, double value) {
        if (Double.isFinite(value)) {
            node.put(field, Math.round(value * 1e6) / 1e6);
        }
        else {
            node.putNull(field);
        }
    }

    private static Double finite(double value) {
        return Double.isFinite(value) ? Math.round(value * 1e6) / 1e6 : null;
    }

    static String fixed(double value, int decimals) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%." + decimals + "f", value) : "-";
    }

    static String percent(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.0f%%", 100 * value) : "-";
    }
}
