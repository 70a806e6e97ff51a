package dev.agentarena.junit.engine.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.MapConfigurationParameters;

class SecretRedactorTest {

    @TempDir
    Path root;

    @Test
    void masksEverySecretLongestFirstButNotShortValues() {
        SecretRedactor redactor = SecretRedactor.of(List.of("sk-secret", "sk-secret-123", "abc"));

        assertThat(redactor.redact("key sk-secret-123, prefix sk-secret and abc"))
                .isEqualTo("key [REDACTED], prefix [REDACTED] and abc");
        assertThat(redactor.redact((String) null)).isNull();
        assertThat(redactor.reveals("a sk-secret b")).isTrue();
        assertThat(redactor.reveals("abc")).isFalse();
        assertThat(SecretRedactor.none().redact("sk-secret")).isEqualTo("sk-secret");
    }

    @Test
    void partOfASecretLeftAtACutIsMaskedButOrdinaryTextIsNot() {
        String secret = "sk-live-0123456789abcdef";
        SecretRedactor redactor = SecretRedactor.of(List.of(secret));

        // a tail cut inside the secret: its end follows the ellipsis
        assertThat(redactor.redact("…" + secret.substring(10) + " at line 3")).isEqualTo("…[REDACTED] at line 3");
        // first and last halves of a program's output, the secret across the cut
        assertThat(redactor.redact("key=" + secret.substring(0, 9) + "\n…[2048 bytes truncated]…\n"
                + secret.substring(20) + " done")).isEqualTo("key=[REDACTED]\n…[2048 bytes truncated]…\n[REDACTED] done");
        // at the text's edges a cut leaves no mark: only a long part counts
        assertThat(redactor.redact(secret.substring(12) + " tail")).isEqualTo("[REDACTED] tail");
        assertThat(redactor.redact("head " + secret.substring(0, 12))).isEqualTo("head [REDACTED]");
        assertThat(redactor.redact("ends with sk-l")).isEqualTo("ends with sk-l");
        assertThat(redactor.redact("…cdef is short")).isEqualTo("…[REDACTED] is short");
        assertThat(redactor.redact("…abc is shorter than the shortest part")).isEqualTo("…abc is shorter than the "
                + "shortest part");
    }

    @Test
    void aRefusalNamesWhereTheSecretCameFromNeverTheSecret() {
        SecretRedactor redactor = SecretRedactor.forRun(ArenaConfiguration.from(new MapConfigurationParameters(
                Map.of("arena.project.root", root.toString()))), Map.of("SERVICE_TOKEN", "tok-0123456789"));

        assertThat(redactor.revealedSource("prompt with tok-0123456789"))
                .contains("the value of the variable SERVICE_TOKEN");
        assertThat(redactor.revealedSource("clean prompt")).isEmpty();
    }

    @Test
    void masksStringsInsideMapsAndListsAndLeavesOtherValues() {
        SecretRedactor redactor = SecretRedactor.of(List.of("sk-secret-123"));

        Object redacted = redactor.redactValue(Map.of("stdout", "got sk-secret-123", "lines",
                List.of("sk-secret-123", 7), "sk-secret-123", true));

        assertThat(redacted).isEqualTo(Map.of("stdout", "got [REDACTED]", "lines", List.of("[REDACTED]", 7),
                "[REDACTED]", true));
        assertThat(redactor.redactMap(null)).isNull();
    }

    @Test
    void anErrorIsKeptWhenCleanAndCopiedWithMaskedMessagesWhenNot() {
        SecretRedactor redactor = SecretRedactor.of(List.of("sk-secret-123"));
        IllegalStateException clean = new IllegalStateException("no key here");
        IllegalStateException leaky = new IllegalStateException("rejected sk-secret-123",
                new IOException("cause sk-secret-123"));
        leaky.addSuppressed(new RuntimeException("suppressed sk-secret-123"));

        assertThat(redactor.redactError(clean)).isSameAs(clean);
        Throwable redacted = redactor.redactError(leaky);

        StringWriter trace = new StringWriter();
        redacted.printStackTrace(new PrintWriter(trace));
        assertThat(trace.toString()).doesNotContain("sk-secret-123")
                .contains("java.lang.IllegalStateException: rejected [REDACTED]")
                .contains("Caused by: java.io.IOException: cause [REDACTED]")
                .contains("Suppressed: java.lang.RuntimeException: suppressed [REDACTED]");
        assertThat(redacted.getStackTrace()).isEqualTo(leaky.getStackTrace());
        assertThat(redacted).isNotInstanceOf(AssertionError.class);
        assertThat(redactor.safeCause(leaky)).isNull();
        assertThat(redactor.safeCause(clean)).isSameAs(clean);
    }

    @Test
    void aRunMasksTheOpenAiKeyEveryApiKeyEnvListedVariablesConventionalNamesAndHeaderValues() throws IOException {
        Files.writeString(root.resolve("arena.yaml"), String.join("\n",
                "models:",
                "  \"openai:llama3.1\":",
                "    base-url: http://localhost:11434/v1",
                "    api-key-env: OLLAMA_KEY",
                "    headers: {X-Org: org-secret-55}",
                ""));
        ArenaConfiguration configuration = ArenaConfiguration.from(new MapConfigurationParameters(Map.of(
                "arena.project.root", root.toString(),
                "arena.models.openai:gpt-4.1.api-key-env", "AZURE_KEY",
                "arena.models.openai:gpt-4.1.headers", "X-Trace=trace-secret-66,X-Short=ab",
                "arena.redact.env", "PLAIN_ONE, PLAIN_TWO")));
        Map<String, String> environment = Map.of(
                "OPENAI_API_KEY", "sk-openai-11",
                "OLLAMA_KEY", "ollama-22",
                "AZURE_KEY", "azure-33",
                "PLAIN_ONE", "plain-44",
                "GITHUB_TOKEN", "ghp-token-77",
                "DB_PASSWORD", "short",
                "HOME", "/home/someone",
                "PLAIN_THREE", "not-a-secret-88");

        SecretRedactor redactor = SecretRedactor.forRun(configuration, environment);

        assertThat(redactor.redact("sk-openai-11 ollama-22 azure-33 plain-44 ghp-token-77 org-secret-55 "
                + "trace-secret-66")).isEqualTo(String.join(" ", java.util.Collections.nCopies(7, "[REDACTED]")));
        assertThat(redactor.redact("short /home/someone not-a-secret-88 ab"))
                .as("conventional names need 8 characters; other variables are not secrets")
                .isEqualTo("short /home/someone not-a-secret-88 ab");
    }

    @Test
    void randomTextsAroundSecretsAndCutsAreMaskedAsTheFragmentRulesSayWithAndWithoutACutInThem() {
        List<String> secrets = List.of("canary-3f9a61c0d2b84e57", "sk-aaaaaaaaaaaaaaaaaaaa", "x1y2x1y2x1y2");
        SecretRedactor redactor = SecretRedactor.of(secrets);
        String[] parts = {"…", "\n", " ", "a", "e57", "canary", "-3f9a61c0", "d2b84e57", "sk-", "aaaaaaa", "x1y2",
            "x1", "y2", "…[12 bytes truncated]…", "canary-3f9a61c0d2b84e57", "\uD83D\uDE00", "7"};
        java.util.Random random = new java.util.Random(11);
        int masked = 0;
        for (int t = 0; t < 20_000; t++) {
            StringBuilder text = new StringBuilder();
            for (int p = random.nextInt(9); p > 0; p--) {
                text.append(parts[random.nextInt(parts.length)]);
            }
            String expected = FragmentRules.redact(secrets, text.toString());
            assertThat(redactor.redact(text.toString())).as("%s", text).isEqualTo(expected);
            masked += expected.equals(text.toString()) ? 0 : 1;
        }
        // the comparison is not between texts left alone
        assertThat(masked).isGreaterThan(5_000);
    }

    /** The fragment rules as first written (one piece per cut, every length compared), the oracle of the fast path. */
    private static final class FragmentRules {

        static String redact(List<String> secrets, String text) {
            String result = text;
            for (String secret : secrets) {
                result = result.replace(secret, SecretRedactor.MASK);
            }
            if (result.length() < 4) {
                return result;
            }
            String[] pieces = result.split("…", -1);
            for (int i = 0; i < pieces.length; i++) {
                String piece = pieces[i];
                int atStart = i > 0 ? 4 : 8;
                int atEnd = i < pieces.length - 1 ? 4 : 8;
                for (String secret : secrets) {
                    int start = i > 0 && piece.startsWith("\n") ? 1 : 0;
                    int suffix = 0;
                    for (int length = Math.min(secret.length() - 1, piece.length() - start); length >= atStart;
                            length--) {
                        if (piece.regionMatches(start, secret, secret.length() - length, length)) {
                            suffix = length;
                            break;
                        }
                    }
                    if (suffix > 0) {
                        piece = piece.substring(0, start) + SecretRedactor.MASK + piece.substring(start + suffix);
                    }
                    int end = i < pieces.length - 1 && piece.endsWith("\n") ? piece.length() - 1 : piece.length();
                    int prefix = 0;
                    for (int length = Math.min(secret.length() - 1, end); length >= atEnd; length--) {
                        if (piece.regionMatches(end - length, secret, 0, length)) {
                            prefix = length;
                            break;
                        }
                    }
                    if (prefix > 0) {
                        piece = piece.substring(0, end - prefix) + SecretRedactor.MASK + piece.substring(end);
                    }
                }
                pieces[i] = piece;
            }
            return String.join("…", pieces);
        }
    }
}
