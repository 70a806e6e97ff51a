package dev.agentarena.junit.engine.models.simulated;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.models.TestConfigurations;
import dev.agentarena.junit.engine.models.registry.ModelRegistry;

/**
 * The models guide's table of what the simulated models get wrong quotes the engine's defaults: every mistake the
 * code makes has a row, and every rate of a row is the default of its model.
 */
class SimulatedSlipsDocTest {

    private static final Path GUIDE = Path.of("../docs/guides/models.md");
    private static final List<String> MODELS = List.of("sim_small", "sim_large", "sim_judge", "sim_user");

    @TempDir
    Path root;

    @Test
    void theGuidesTableHoldsEverySlipAtItsDefaultRatePerModel() throws IOException {
        Map<String, ToDoubleFunction<SimulatedModel.Profile>> rates = new LinkedHashMap<>();
        rates.put("wrong answer", profile -> 1 - profile.accuracy());
        rates.put("abstention", SimulatedModel.Profile::abstainRate);
        rates.put("first position on a tie", profile -> SimulatedJudge.TIE_POSITION_BIAS);
        rates.put("first position over a better second", profile -> SimulatedJudge.WIN_POSITION_BIAS);
        for (SimulatedAgent.Slip slip : SimulatedAgent.Slip.values()) {
            rates.put(slip.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '),
                    profile -> profile.agentRates().of(slip));
        }
        Map<String, List<String>> rows = table();

        assertThat(rows.keySet()).containsExactlyElementsOf(rates.keySet());
        try (ModelRegistry registry = TestConfigurations.registry(root, Map.of(), Map.of())) {
            for (int i = 0; i < MODELS.size(); i++) {
                SimulatedModel.Profile profile = SimulatedModel.Profile.of(MODELS.get(i),
                        registry.settings(MODELS.get(i)));
                for (Map.Entry<String, ToDoubleFunction<SimulatedModel.Profile>> rate : rates.entrySet()) {
                    assertThat(rows.get(rate.getKey()).get(i)).as("%s of %s", rate.getKey(), MODELS.get(i))
                            .isEqualTo(percent(rate.getValue().applyAsDouble(profile)));
                }
            }
        }
    }

    /** The rows of the table under "What the simulated models get wrong": mistake → its four models' cells. */
    private static Map<String, List<String>> table() throws IOException {
        List<String> lines = Files.readAllLines(GUIDE);
        int heading = lines.indexOf("### What the simulated models get wrong, and how often");
        assertThat(heading).as("the section in %s", GUIDE).isPositive();
        Map<String, List<String>> rows = new LinkedHashMap<>();
        int at = heading;
        while (!lines.get(at).startsWith("| Mistake |")) {
            at++;
        }
        assertThat(lines.get(at)).contains("| `sim_small` | `sim_large` | `sim_judge` | `sim_user` |");
        for (at += 2; lines.get(at).startsWith("|"); at++) {
            String[] cells = lines.get(at).split("\\|");
            rows.put(cells[1].strip(), List.of(cells[3].strip(), cells[4].strip(), cells[5].strip(),
                    cells[6].strip()));
        }
        return rows;
    }

    private static String percent(double rate) {
        double percent = Math.round(rate * 1000) / 10.0;
        return (percent == Math.rint(percent) ? String.valueOf((long) percent) : String.valueOf(percent)) + " %";
    }
}
