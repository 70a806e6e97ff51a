package dev.agentarena.junit.engine.evaluation;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.ResultRecord;

/**
 * One scorer's verdict on one repeat of one case, ready to report: what one scorer test shows.
 *
 * @param record the result line
 * @param transcript the exchange with the model and the scorer's detail
 * @param error what went wrong when the status is an error, else {@code null}
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record ScorerResult(ResultRecord record, CaseTranscript transcript, Throwable error) {
}
