package dev.agentarena.junit.engine.reporting;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.LongTexts;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.SinkText;

/**
 * Keeps the whole text of every reason and error that was cut (see {@link LongTexts}), and of every trajectory cut
 * or long, beside the results, under {@code texts/} in the output directory, where the cut text says it is; each file
 * once per execution, however many results name it.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class WholeTexts implements RunListener {

    private final Path outputDirectory;
    /** The files written: a case's whole trajectory is one file, which each of its results carries. */
    private final Set<String> written = ConcurrentHashMap.newKeySet();

    public WholeTexts(Path outputDirectory) {
        this.outputDirectory = outputDirectory;
    }

    @Override
    public void resultReported(ResultRecord record, CaseTranscript transcript) {
        Map<String, CaseTranscript.WholeText> wholeTexts = transcript.wholeTexts();
        if (wholeTexts.isEmpty()) {
            // nearly every result: no view of the values and no iterator for it
            return;
        }
        for (CaseTranscript.WholeText whole : wholeTexts.values()) {
            if (!written.add(whole.file())) {
                // the case's trajectory, written with its first result: it costs its size once
                continue;
            }
            Path file = outputDirectory.resolve(whole.file());
            try {
                Files.createDirectories(file.getParent());
                // an unpaired surrogate in a model's or task's text becomes U+FFFD, as in results.jsonl, not an
                // error of the case (writeString refuses it)
                Files.write(file, SinkText.wellFormed(whole.text()).getBytes(StandardCharsets.UTF_8));
            }
            catch (IOException e) {
                throw new UncheckedIOException("Cannot keep the whole text of " + record.caseId() + "/"
                        + record.scorer() + " in " + file, e);
            }
        }
    }
}
