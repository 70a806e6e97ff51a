package dev.agentarena.junit.engine.reporting;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.labels.LabelSheet;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.OutputFiles;
import dev.agentarena.junit.engine.results.ResultRecord;

/**
 * {@code arena.labels.export=csv|jsonl}: writes a labelling sheet of the run's outputs,
 * {@code labels-to-fill.csv} (or {@code .jsonl}) in the output directory, when the run ends, so that a person can
 * grade them without a separate command; {@code reporting.agreement.ExportLabels} makes the same sheet from a {@code results.jsonl}.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class LabelSheetFile implements RunListener {

    private final Path file;
    private final LabelSheet.Format format;
    private final LabelSheet sheet = new LabelSheet();

    private LabelSheetFile(Path directory, LabelSheet.Format format) {
        this.format = format;
        this.file = directory.resolve(LabelSheet.FILE_STEM + "." + format.extension());
    }

    /**
     * The sheet's listener when {@code arena.labels.export} asks for one.
     *
     * @throws ConfigurationException naming the key and value when the format is neither csv nor jsonl
     */
    public static Optional<LabelSheetFile> ifExported(ArenaConfiguration configuration, Path directory) {
        Optional<String> value = configuration.get(Constants.LABELS_EXPORT).filter(text -> !text.isBlank());
        if (value.isEmpty() || value.get().strip().equalsIgnoreCase("none")) {
            return Optional.empty();
        }
        try {
            return Optional.of(new LabelSheetFile(directory, LabelSheet.format(value.get())));
        }
        catch (IllegalArgumentException e) {
            throw new ConfigurationException(Constants.LABELS_EXPORT + "=" + value.get() + ": " + e.getMessage()
                    + " (or none)");
        }
    }

    /** Where the sheet goes. */
    public Path file() {
        return file;
    }

    @Override
    public void resultReported(ResultRecord record, CaseTranscript transcript) {
        sheet.add(new LabelSheet.Result(record.eval(), record.dataset(), record.caseId(), record.model(),
                record.repeat(), record.scorer(), record.score(), record.passed(), record.reason(), record.output(),
                transcript == null ? null : transcript.prompt(), transcript == null ? null : transcript.reference()));
    }

    @Override
    public void runFinished(RunReport report) {
        try {
            OutputFiles.write(file, sheet.render(format));
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot write the labelling sheet " + file, e);
        }
    }
}
