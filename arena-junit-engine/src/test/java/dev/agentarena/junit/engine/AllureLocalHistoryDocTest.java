package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local recipe of docs/guides/allure.md ("History and trends across builds") keeps Allure's history across a
 * developer's own runs. Run here as written, with {@code mvn} played by a shell function: {@code clean} deletes
 * {@code target}, {@code allure:report} writes a report whose history is the one it was given plus this build. A
 * {@code mvn clean} between two reports (a build of its own) must not lose the history, and the kept copy stays in the
 * project, where a sibling project's cannot overwrite it.
 */
class AllureLocalHistoryDocTest {

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    /** {@code mvn} as far as the recipe needs it; each report's history.json has a line per build it carries. */
    private static final String MAVEN = """
            mvn() {
              case " $* " in *" clean "*) rm -rf target ;; esac
              case " $* " in *" test "*) mkdir -p target/allure-results ;; esac
              case " $* " in *" allure:report "*)
                mkdir -p target/site/allure-maven-plugin/history
                { cat target/allure-results/history/history.json 2>/dev/null; echo build; } \\
                  > target/site/allure-maven-plugin/history/history.json ;;
              esac
            }
            """;

    @TempDir
    Path dir;

    @Test
    void aCleanBetweenTwoReportsLosesNoHistoryAndTheCopyStaysInTheProject() throws Exception {
        Path project = Files.createDirectories(dir.resolve("parent/project"));
        String recipe = recipe();

        run(project, recipe);
        run(project, recipe);
        run(project, "mvn clean");
        run(project, recipe);

        assertThat(project.resolve("target/site/allure-maven-plugin/history/history.json")).content()
                .as("the third report carries the two before it").isEqualTo("build\nbuild\nbuild\n");
        try (var outside = Files.list(dir.resolve("parent"))) {
            assertThat(outside).as("nothing written beside the project").containsExactly(project);
        }
    }

    private static String recipe() throws IOException {
        String page = Files.readString(ROOT.resolve("docs/guides/allure.md"));
        int begin = page.indexOf("<!-- allure-history-local:begin -->");
        int end = page.indexOf("<!-- allure-history-local:end -->");
        assertThat(begin).as("allure.md marks its local recipe").isNotNegative();
        String block = page.substring(begin, end);
        return block.substring(block.indexOf("```bash\n") + 8, block.lastIndexOf("```"));
    }

    private static void run(Path project, String script) throws Exception {
        Process bash = new ProcessBuilder("bash", "-c", MAVEN + script).directory(project.toFile())
                .redirectErrorStream(true).start();
        String said = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(bash.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(bash.exitValue()).as(said).isZero();
    }
}
