import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;

import dev.agentarena.bench.routing.MockModel;

/**
 * Writes the ticket-routing datasets and what a correct run of each must count, without running either system:
 * {@code cases-N.jsonl} ({@code {"id","input","reference"}} per line) and {@code expected-N.properties}.
 *
 * <p>Case i depends on i alone (cases-1000 is the start of cases-10000), and the cases are those of the peer
 * benchmark's {@code gen-dataset.js}: the same seeded generator (mulberry32 seeded with FNV-1a of the id) and
 * templates.
 *
 * <pre>java -cp target/tools GenerateCases OUT_DIR N...</pre>
 */
public final class GenerateCases {

    private static final String[] PRODUCTS = {"Acme Cloud", "Nimbus Drive", "Orbit CRM", "Pixel Studio", "Quanta Mail",
        "Zephyr Notes"};
    private static final String[][] TEMPLATES = {
        {"I was charged twice for my {p} subscription this month, invoice #{n}.",
            "Please send a refund for order {n}; the {p} plan was cancelled {d} days ago.",
            "My card payment for {p} failed but the money left my bank (reference {n}).",
            "Why does invoice {n} show a higher price for {p} than last month?"},
        {"The {p} app shows error code E{n} every time I open the settings page.",
            "{p} started to crash after the update {d} days ago, build {n}.",
            "Sync requests to {p} fail with a timeout after {d} seconds (trace {n}).",
            "I think I found a bug: exporting a report from {p} gives an empty file (job {n})."},
        {"I forgot my password and the reset link for {p} expired, user id {n}.",
            "The login to {p} keeps sending me back to the start page (session {n}).",
            "Please change the username on my {p} profile to jdoe{n}.",
            "I lost my phone and need to reset two-factor authentication for {p} (case {n})."},
        {"Do you offer a partnership program for resellers of {p} in region {n}?",
            "Some feedback: the new {p} logo looks great, keep it up! ({n})",
            "What are your office hours during the holidays? Asking about {p}, ref {n}.",
            "I am a journalist; who handles press enquiries about {p}? ({n})"},
    };
    private static final Pattern FORMAT = Pattern.compile("^(billing|technical|account|other)$");

    private GenerateCases() {
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        for (int a = 1; a < args.length; a++) {
            generate(Integer.parseInt(args[a]), out);
        }
    }

    /** mulberry32, as the peer's JavaScript computes it in 32-bit integers. */
    private static final class Mulberry32 {
        private int state;

        Mulberry32(int seed) {
            state = seed;
        }

        double next() {
            state += 0x6d2b79f5;
            int t = state;
            t = (t ^ (t >>> 15)) * (t | 1);
            t ^= t + (t ^ (t >>> 7)) * (t | 61);
            return ((t ^ (t >>> 14)) & 0xffffffffL) / 4294967296.0;
        }

        int pick(int size) {
            return (int) Math.floor(next() * size);
        }
    }

    private static void generate(int n, Path out) throws IOException {
        long passed = 0;
        long exact = 0;
        long contains = 0;
        long format = 0;
        long tokensIn = 0;
        long tokensOut = 0;
        try (Writer cases = Files.newBufferedWriter(out.resolve("cases-" + n + ".jsonl"), StandardCharsets.UTF_8)) {
            for (int i = 1; i <= n; i++) {
                String id = String.format(Locale.ROOT, "case-%06d", i);
                Mulberry32 random = new Mulberry32((int) MockModel.fnv1a32("seed:" + id));
                int label = random.pick(MockModel.LABELS.length);
                String template = TEMPLATES[label][random.pick(TEMPLATES[label].length)];
                String product = PRODUCTS[random.pick(PRODUCTS.length)];
                int number = 1000 + (int) Math.floor(random.next() * 99000);
                int days = 1 + (int) Math.floor(random.next() * 30);
                String input = replaceFirst(replaceFirst(replaceFirst(template, "{p}", product), "{n}",
                        String.valueOf(number)), "{d}", String.valueOf(days));
                String expected = MockModel.LABELS[label];
                if (MockModel.classify(input) != label) {
                    throw new IllegalStateException(id + ": \"" + input + "\" does not classify as " + expected);
                }
                cases.write("{\"id\":" + quote(id) + ",\"input\":" + quote(input) + ",\"reference\":" + quote(expected)
                        + "}\n");
                MockModel.Answer answer = MockModel.call(MockModel.render(id, input), 0);
                String output = answer.output();
                boolean e = output.equals(expected);
                boolean c = output.toLowerCase(Locale.ROOT).contains(expected.toLowerCase(Locale.ROOT));
                boolean f = FORMAT.matcher(output).find();
                exact += e ? 1 : 0;
                contains += c ? 1 : 0;
                format += f ? 1 : 0;
                passed += e && c && f ? 1 : 0;
                tokensIn += answer.promptTokens();
                tokensOut += answer.completionTokens();
            }
        }
        Files.writeString(out.resolve("expected-" + n + ".properties"), "cases=" + n + "\npassed=" + passed
                + "\nlabel_exact=" + exact + "\nlabel_contains=" + contains + "\nlabel_format=" + format
                + "\ntokens_in=" + tokensIn + "\ntokens_out=" + tokensOut + "\n", StandardCharsets.UTF_8);
        System.out.println("cases-" + n + ".jsonl: passed=" + passed + " label_exact=" + exact + " label_contains="
                + contains + " label_format=" + format + " tokens=" + tokensIn + "/" + tokensOut);
    }

    private static String replaceFirst(String text, String placeholder, String value) {
        int at = text.indexOf(placeholder);
        return at < 0 ? text : text.substring(0, at) + value + text.substring(at + placeholder.length());
    }

    private static String quote(String text) {
        StringBuilder json = new StringBuilder(text.length() + 2).append('"');
        for (char ch : text.toCharArray()) {
            if (ch == '"' || ch == '\\') {
                json.append('\\').append(ch);
            }
            else if (ch < 0x20 || ch == 0x7f) {
                json.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
            }
            else {
                json.append(ch);
            }
        }
        return json.append('"').toString();
    }
}
