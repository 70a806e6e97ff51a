package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Reads what Surefire wrote for the stuck-scorer sample: the build ended, and every case and scorer is there, the two
 * hung calls as errors naming their limit.
 */
class StuckScorerIT {

    private static final Path REPORT = Paths.get("target/surefire-reports/"
            + "TEST-dev.agentarena.samples.failures.StuckScorerEvalTest.xml");

    @Test
    void theHungScorerIsAnErrorOfItsCaseAndEveryOtherTestIsReported() throws Exception {
        assertThat(REPORT).as("run `mvn verify` so Surefire runs the samples first").exists();
        NodeList nodes = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(REPORT.toFile())
                .getElementsByTagName("testcase");
        List<Element> cases = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            Element testcase = (Element) nodes.item(i);
            if (testcase.getAttribute("name").startsWith("sim_small/")) {
                cases.add(testcase);
            }
        }
        // 4 cases x 2 scorers (contains, concise); the summary tests after them aside
        assertThat(cases).hasSize(8);
        List<String> errors = new ArrayList<>();
        for (Element testcase : cases) {
            NodeList error = testcase.getElementsByTagName("error");
            if (error.getLength() > 0) {
                errors.add(testcase.getAttribute("name") + " :: " + ((Element) error.item(0)).getAttribute("message"));
            }
        }
        assertThat(errors).hasSize(2);
        assertThat(errors).anySatisfy(error -> assertThat(error).startsWith("sim_small/questions[sleeps]/concise")
                .contains("did not finish within its limit of 2 s (arena.timeout.scorer").endsWith("interrupted"));
        assertThat(errors).anySatisfy(error -> assertThat(error)
                .startsWith("sim_small/questions[never_returns]/concise").endsWith("and was left running"));
    }
}
