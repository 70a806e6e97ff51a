package dev.agentarena.junit.engine.reporting;

import org.apiguardian.api.API;

/**
 * One dataset being run on one model for one eval: what the progress events ({@link RunListener#casesStarted} and
 * the rest) are about, so that the console can say how far each such run has come.
 *
 * @param eval the eval's name
 * @param model the model key
 * @param dataset the dataset's name
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record RunningDataset(String eval, String model, String dataset) {
}
