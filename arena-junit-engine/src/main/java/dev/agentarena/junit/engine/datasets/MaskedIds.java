package dev.agentarena.junit.engine.datasets;

import java.util.function.UnaryOperator;

import org.apiguardian.api.API;

/**
 * The rows of a dataset with a secret masked in every case id, and the masked ids kept unique: a case id becomes the
 * name of a test, a results line's {@code case_id} and a leaderboard row, so a secret in it would be written in clear
 * everywhere. Two ids that differ only in their secret mask to the same id; the second becomes a duplicate, as any
 * repeated id does ({@code x#2}, naming where the first was). The case itself keeps its id: the task may need it.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class MaskedIds {

    private MaskedIds() {
    }

    /**
     * @param mask the run's secret masking; an identity function masks nothing
     * @param origin what produced rows without a file location, for messages
     */
    public static DatasetStream of(DatasetStream rows, UnaryOperator<String> mask, String origin) {
        if (rows instanceof UniqueIds checked) {
            // a dataset's rows as read: the check of masked ids shares the names of the check of ids
            return checked.masked(mask, origin);
        }
        return new UniqueIds(new DatasetStream() {
            @Override
            public boolean hasNext() {
                return rows.hasNext();
            }

            @Override
            public DatasetRow next() {
                DatasetRow row = rows.next();
                String masked = mask.apply(row.caseId());
                return masked.equals(row.caseId()) ? row : row.withCaseId(masked);
            }

            @Override
            public void close() {
                rows.close();
            }
        }, origin);
    }
}
