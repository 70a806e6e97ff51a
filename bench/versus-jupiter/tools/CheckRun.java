import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Checks one run against what {@link GenerateCases} computed for its dataset, so that only runs that did all the
 * work count: prints {@code ok} or {@code MISMATCH(...)}, then the counts.
 *
 * <pre>
 * java CheckRun engine  RESULTS_JSONL LOG EXPECTED_PROPERTIES   # results.jsonl, and the launcher's own summary
 * java CheckRun jupiter LOG EXPECTED_PROPERTIES                 # the factory's ORACLE line and the summary
 * </pre>
 */
public final class CheckRun {

    private static final List<String> CHECKS = List.of("label_exact", "label_contains", "label_format");
    private static final Pattern ORACLE = Pattern.compile("ORACLE cases=(\\d+) passed=(\\d+) label_exact=(\\d+)"
            + " label_contains=(\\d+) label_format=(\\d+) tokens_in=(\\d+) tokens_out=(\\d+)");
    private static final Pattern CONSOLE_OK = Pattern.compile("\\[\\s*(\\d+) tests successful\\s*]");
    private static final Pattern CONSOLE_FAILED = Pattern.compile("\\[\\s*(\\d+) tests failed\\s*]");
    private static final Pattern SUREFIRE = Pattern.compile(
            "Tests run: (\\d+), Failures: (\\d+), Errors: (\\d+), Skipped: (\\d+)\\s*$", Pattern.MULTILINE);

    private CheckRun() {
    }

    public static void main(String[] args) throws IOException {
        boolean engine = args[0].equals("engine");
        Path expectedFile = Path.of(args[engine ? 3 : 2]);
        Properties expected = new Properties();
        try (Reader in = Files.newBufferedReader(expectedFile, StandardCharsets.UTF_8)) {
            expected.load(in);
        }
        Map<String, Long> want = new LinkedHashMap<>();
        for (String key : List.of("cases", "passed", "label_exact", "label_contains", "label_format", "tokens_in",
                "tokens_out")) {
            want.put(key, Long.parseLong(expected.getProperty(key)));
        }
        long passes = want.get("label_exact") + want.get("label_contains") + want.get("label_format");
        want.put("tests_passed", passes);
        want.put("tests_failed", 3 * want.get("cases") - passes);
        Map<String, Long> got = engine ? fromResults(Path.of(args[1])) : fromOracleLine(Path.of(args[1]));
        if (engine) {
            want.put("other_lines", 0L);
        }
        summary(Path.of(args[engine ? 2 : 1]), got);
        List<String> differences = new ArrayList<>();
        want.forEach((key, value) -> {
            if (!value.equals(got.get(key))) {
                differences.add(key + "=" + got.get(key) + "!=" + value);
            }
        });
        System.out.println(differences.isEmpty() ? "ok" : "MISMATCH(" + String.join(",", differences) + ")");
        System.out.println(got);
    }

    private static Map<String, Long> fromResults(Path file) throws IOException {
        ObjectMapper json = new ObjectMapper();
        Map<String, Integer> linesPerCase = new HashMap<>();
        Map<String, Integer> passesPerCase = new HashMap<>();
        Map<String, Long> got = new LinkedHashMap<>();
        CHECKS.forEach(check -> got.put(check, 0L));
        long other = 0;
        long tokensIn = 0;
        long tokensOut = 0;
        try (BufferedReader lines = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                JsonNode result = json.readTree(line);
                String check = result.get("scorer").asText();
                String status = result.get("status").asText();
                if (!CHECKS.contains(check) || !(status.equals("passed") || status.equals("failed"))) {
                    other++;
                    continue;
                }
                String id = result.get("case_id").asText();
                linesPerCase.merge(id, 1, Integer::sum);
                if (result.get("passed").asBoolean()) {
                    passesPerCase.merge(id, 1, Integer::sum);
                    got.merge(check, 1L, Long::sum);
                }
                if (check.equals("label_exact")) {
                    tokensIn += result.get("tokens_in").asLong();
                    tokensOut += result.get("tokens_out").asLong();
                }
            }
        }
        got.put("cases", (long) linesPerCase.size());
        got.put("passed", passesPerCase.entrySet().stream()
                .filter(entry -> entry.getValue() == 3 && linesPerCase.get(entry.getKey()) == 3).count());
        got.put("tokens_in", tokensIn);
        got.put("tokens_out", tokensOut);
        got.put("other_lines", other);
        return got;
    }

    private static Map<String, Long> fromOracleLine(Path log) throws IOException {
        Matcher oracle = ORACLE.matcher(Files.readString(log, StandardCharsets.UTF_8));
        Map<String, Long> got = new LinkedHashMap<>();
        if (oracle.find()) {
            String[] keys = {"cases", "passed", "label_exact", "label_contains", "label_format", "tokens_in",
                "tokens_out"};
            for (int i = 0; i < keys.length; i++) {
                got.put(keys[i], Long.parseLong(oracle.group(i + 1)));
            }
        }
        return got;
    }

    /** The launcher's own counts: the console launcher's summary, or Surefire's last "Tests run" line. */
    private static void summary(Path log, Map<String, Long> got) throws IOException {
        String text = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
        Matcher ok = CONSOLE_OK.matcher(text);
        Matcher failed = CONSOLE_FAILED.matcher(text);
        if (ok.find() && failed.find()) {
            got.put("tests_passed", Long.parseLong(ok.group(1)));
            got.put("tests_failed", Long.parseLong(failed.group(1)));
            return;
        }
        Matcher surefire = SUREFIRE.matcher(text);
        String[] last = null;
        while (surefire.find()) {
            last = new String[] {surefire.group(1), surefire.group(2), surefire.group(3)};
        }
        if (last != null) {
            long failures = Long.parseLong(last[1]) + Long.parseLong(last[2]);
            got.put("tests_passed", Long.parseLong(last[0]) - failures);
            got.put("tests_failed", failures);
        }
    }
}
