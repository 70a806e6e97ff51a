package dev.agentarena.junit.engine.datasets;

import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.EvalCase;

/**
 * One row of a dataset as read: a case, or the error that row produced, with where it came from.
 *
 * <p>A bad row never stops a dataset: it travels as a row with an error, so it still becomes a node in the tree and a
 * line in the results.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DatasetRow {

    private final String caseId;
    /** The case and the location as their getters return them, made once: the run asks a row for them many times. */
    private final Optional<EvalCase> evalCase;
    private final String error;
    private final Optional<DatasetLocation> location;
    private final JsonNode fields;
    /** The id as the row wrote it, when it is not the case id (its ends were stripped); else {@code null}. */
    private final String writtenId;

    private DatasetRow(String caseId, EvalCase evalCase, String error, DatasetLocation location) {
        this(caseId, evalCase, error, location, null, null);
    }

    private DatasetRow(String caseId, EvalCase evalCase, String error, DatasetLocation location, JsonNode fields,
            String writtenId) {
        this.caseId = Objects.requireNonNull(caseId, "caseId");
        this.evalCase = Optional.ofNullable(evalCase);
        this.error = error;
        this.location = Optional.ofNullable(location);
        this.fields = fields;
        this.writtenId = writtenId;
    }

    /**
     * A row read as plain fields, not as a case ({@link DatasetFiles#openPlain}): a file of another shape (human
     * labels) read by the same readers, with the same file:line errors.
     */
    static DatasetRow plain(JsonNode fields, DatasetLocation location) {
        return new DatasetRow(location.displayName() + ":" + location.line(), null, null, location, fields, null);
    }

    /** The row's fields, for a row read plain ({@link DatasetFiles#openPlain}); empty for a case or a bad row. */
    public Optional<JsonNode> fields() {
        return Optional.ofNullable(fields);
    }

    /** A good row. */
    public static DatasetRow of(EvalCase evalCase, DatasetLocation location) {
        return new DatasetRow(evalCase.id(), evalCase, null, location);
    }

    /**
     * A bad row.
     *
     * @param caseId the row's id if it had one, else a stable one from file and line
     * @param error what is wrong, naming the file and line
     */
    public static DatasetRow failed(String caseId, String error, DatasetLocation location) {
        return new DatasetRow(caseId, null, Objects.requireNonNull(error, "error"), location);
    }

    /** This row under another id (the case keeps its own): a masked one. */
    DatasetRow withCaseId(String id) {
        return new DatasetRow(id, evalCase.orElse(null), error, location.orElse(null), fields, null);
    }

    /** This row, noting the id as written when it is not the case id ({@code null}: it is). */
    DatasetRow withWrittenId(String written) {
        return written == null || written.equals(caseId) ? this
                : new DatasetRow(caseId, evalCase.orElse(null), error, location.orElse(null), fields, written);
    }

    /** The id as the row wrote it: the case id, but for the whitespace stripped from its ends. */
    String writtenId() {
        return writtenId == null ? caseId : writtenId;
    }

    /** The case id, also for a bad row. */
    public String caseId() {
        return caseId;
    }

    /** The case, unless the row is bad. */
    public Optional<EvalCase> evalCase() {
        return evalCase;
    }

    /** What is wrong with the row, if anything. */
    public Optional<String> error() {
        return Optional.ofNullable(error);
    }

    /** Where the row came from, when it came from a file. */
    public Optional<DatasetLocation> location() {
        return location;
    }

    @Override
    public String toString() {
        return "DatasetRow[" + caseId + (error == null ? "" : ", error=" + error) + "]";
    }
}
