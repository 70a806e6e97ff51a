package dev.agentarena.junit.engine.evaluation.arena;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.json.Json;

/**
 * The outputs an {@code @Arena} eval's pairwise comparisons need, kept until every model ran: models run one after
 * the other, so the outputs of two models for the same case are known together only at the end. Each model's outputs
 * of a dataset go to a temporary file, in dataset order (first repeat only), and are read back in step: however many
 * cases, the heap holds one case per model at a time.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ArenaOutputs implements AutoCloseable {

    /** One case's output on one model, as read back: the output is {@code null} when its task failed. */
    record Entry(String caseId, String input, String reference, String output) {
    }

    private final Map<String, Map<String, Writer>> files = new LinkedHashMap<>();
    private UncheckedIOException failure;

    /**
     * Keeps a case's output (its first repeat's); called in dataset order.
     *
     * @param evalCase the case, or {@code null} when its row could not be read
     * @param output the output the scorers graded, or {@code null} when the task failed
     */
    public synchronized void keep(String dataset, String model, String caseId, EvalCase evalCase, String output) {
        if (failure != null) {
            return;
        }
        try {
            Writer writer = files.computeIfAbsent(dataset, name -> new LinkedHashMap<>())
                    .computeIfAbsent(model, key -> Writer.open());
            writer.write(new Entry(caseId, evalCase == null ? "" : Json.text(evalCase.input()),
                    evalCase == null || evalCase.reference() == null ? null : Json.text(evalCase.reference()),
                    output));
        }
        catch (UncheckedIOException e) {
            // the cases still run and report: only the arena, which needs every output, cannot compare
            failure = e;
        }
    }

    /** Why the outputs could not all be kept (a full disk), if they could not. */
    synchronized Optional<UncheckedIOException> failure() {
        return Optional.ofNullable(failure);
    }

    /** The datasets kept, in the order their first output arrived. */
    synchronized Iterable<String> datasets() {
        return List.copyOf(files.keySet());
    }

    /** The file of a model's outputs on a dataset, closed for writing, if the model ran it. */
    synchronized Optional<Path> file(String dataset, String model) {
        Writer writer = files.getOrDefault(dataset, Map.of()).get(model);
        if (writer == null) {
            return Optional.empty();
        }
        writer.finish();
        return Optional.of(writer.path);
    }

    /** Deletes the files. */
    @Override
    public synchronized void close() {
        files.values().forEach(models -> models.values().forEach(Writer::delete));
        files.clear();
    }

    /** Reads one file back, entry by entry. */
    static final class Reader implements AutoCloseable {

        private final DataInputStream in;

        Reader(Path file) {
            try {
                this.in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)));
            }
            catch (IOException e) {
                throw new UncheckedIOException("Cannot read the arena's outputs from " + file, e);
            }
        }

        /** The next entry, or empty at the end. */
        Optional<Entry> next() {
            try {
                String caseId;
                try {
                    caseId = text(in);
                }
                catch (EOFException end) {
                    return Optional.empty();
                }
                return Optional.of(new Entry(caseId, text(in), text(in), text(in)));
            }
            catch (IOException e) {
                throw new UncheckedIOException("Cannot read the arena's outputs", e);
            }
        }

        @Override
        public void close() {
            try {
                in.close();
            }
            catch (IOException e) {
                // read to its end or given up: nothing is lost
            }
        }
    }

    private static String text(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static final class Writer {

        final Path path;
        private DataOutputStream out;

        private Writer(Path path, DataOutputStream out) {
            this.path = path;
            this.out = out;
        }

        static Writer open() {
            try {
                Path path = Files.createTempFile("arena-outputs-", ".bin");
                return new Writer(path, new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(path))));
            }
            catch (IOException e) {
                throw new UncheckedIOException("Cannot keep the outputs the arena compares in a temporary file", e);
            }
        }

        void write(Entry entry) {
            if (out == null) {
                return;
            }
            try {
                for (String text : new String[] {entry.caseId(), entry.input(), entry.reference(), entry.output()}) {
                    if (text == null) {
                        out.writeInt(-1);
                    }
                    else {
                        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
                        out.writeInt(bytes.length);
                        out.write(bytes);
                    }
                }
            }
            catch (IOException e) {
                throw new UncheckedIOException("Cannot keep the outputs the arena compares in " + path, e);
            }
        }

        void finish() {
            if (out != null) {
                try {
                    out.close();
                }
                catch (IOException e) {
                    throw new UncheckedIOException("Cannot keep the outputs the arena compares in " + path, e);
                }
                out = null;
            }
        }

        void delete() {
            try {
                finish();
            }
            catch (UncheckedIOException e) {
                // deleted all the same
            }
            try {
                Files.deleteIfExists(path);
            }
            catch (IOException e) {
                path.toFile().deleteOnExit();
            }
        }
    }
}
