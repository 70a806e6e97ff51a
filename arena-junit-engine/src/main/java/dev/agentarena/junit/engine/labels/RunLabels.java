package dev.agentarena.junit.engine.labels;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.AnnotationSupport;

import dev.agentarena.junit.HumanLabels;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.datasets.DatasetFiles;
import dev.agentarena.junit.engine.datasets.DatasetNotFoundException;
import dev.agentarena.junit.engine.datasets.DatasetSource;
import dev.agentarena.junit.engine.secrets.SecretRedactor;

/**
 * The human labels of a run, by eval: the file {@code arena.labels.file} names (every eval's, each row naming its
 * eval) and each eval's own {@link HumanLabels @HumanLabels} file. Read once per eval when its runtime starts, then
 * shared by the evaluation core (a labelled {@code manual} case) and the reporting (the agreement), which know
 * nothing of each other.
 *
 * <p>A label's texts are masked as everything the run writes is (a secret of the environment pasted into a note), its
 * note shown printable and cut to size ({@link LabelText}); an output labelled twice is an error naming both lines.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class RunLabels {

    private static final int MAX_DUPLICATES = 10;

    private final ArenaConfiguration configuration;
    private final SecretRedactor secrets;
    private final Map<String, EvalLabels> evals = new ConcurrentHashMap<>();
    private List<HumanLabel> configured;

    private RunLabels(ArenaConfiguration configuration) {
        this.configuration = configuration;
        this.secrets = SecretRedactor.forRun(configuration, System.getenv());
    }

    /** The labels a run reads. */
    public static RunLabels from(ArenaConfiguration configuration) {
        return new RunLabels(configuration);
    }

    /** Whether an eval class has labels declared: on the class or in the configuration. */
    public static boolean declared(Class<?> evalClass, ArenaConfiguration configuration) {
        return evalClass != null && AnnotationSupport.isAnnotated(evalClass, HumanLabels.class)
                || configuration.get(Constants.LABELS_FILE).filter(name -> !name.isBlank()).isPresent();
    }

    /**
     * Reads an eval's labels, once: those of its class's file and those of the configured file that name it.
     *
     * @param evalClass the eval's class, or {@code null} when it is not at hand (a merge run without it on its class
     *        path): then only the configured file's labels
     * @return empty when the eval has no labels file
     * @throws ConfigurationException naming the file, and each bad row's line (an output labelled twice too)
     */
    public Optional<EvalLabels> load(String eval, Class<?> evalClass) {
        if (!declared(evalClass, configuration)) {
            return Optional.empty();
        }
        EvalLabels known = evals.get(eval);
        if (known != null) {
            return Optional.of(known);
        }
        List<HumanLabel> labels = new ArrayList<>();
        Optional<HumanLabels> annotation = evalClass == null ? Optional.empty()
                : AnnotationSupport.findAnnotation(evalClass, HumanLabels.class);
        if (annotation.isPresent()) {
            String declaredBy = "@HumanLabels(\"" + annotation.get().value() + "\") on " + evalClass.getName();
            Map<String, Integer> otherEvals = new TreeMap<>();
            List<HumanLabel> read = LabelFile.read(locate(annotation.get().value(), evalClass, declaredBy), eval);
            for (HumanLabel label : read) {
                if (label.eval().equals(eval)) {
                    labels.add(shown(label));
                }
                else {
                    otherEvals.merge(LabelText.visible(secrets.redact(label.eval())), 1, Integer::sum);
                }
            }
            if (labels.isEmpty() && !otherEvals.isEmpty()) {
                // every label is another eval's: the eval column misspells this one, or names the eval it was
                // copied from, and the eval would measure nothing without a word
                List<String> named = new ArrayList<>();
                otherEvals.forEach((other, rows) -> named.add("'" + other + "' (" + rows + (rows == 1 ? " row)"
                        : " rows)")));
                throw new ConfigurationException("Labels file '" + annotation.get().value() + "' (" + declaredBy
                        + ") has " + read.size() + " label" + (read.size() == 1 ? "" : "s") + ", none of eval '"
                        + LabelText.visible(eval) + "': its eval column names " + String.join(", ", named)
                        + ". A row's eval is the @Eval name of the class it labels; in a file of one eval, leave the "
                        + "column out; see docs/guides/judges.md");
            }
        }
        for (HumanLabel label : configured()) {
            if (label.eval().equals(eval)) {
                labels.add(label);
            }
        }
        checkOnePerOutput(eval, labels);
        EvalLabels read = new EvalLabels(eval, labels);
        EvalLabels raced = evals.putIfAbsent(eval, read);
        return Optional.of(raced != null ? raced : read);
    }

    /** The labels an eval has once {@link #load loaded}; empty for an eval without labels. */
    public Optional<EvalLabels> of(String eval) {
        return Optional.ofNullable(evals.get(eval));
    }

    private synchronized List<HumanLabel> configured() {
        if (configured == null) {
            Optional<String> file = configuration.get(Constants.LABELS_FILE).filter(name -> !name.isBlank());
            try {
                configured = file.isEmpty() ? List.of()
                        : LabelFile.read(locate(file.get(), null, Constants.LABELS_FILE), null).stream()
                                .map(this::shown).toList();
            }
            catch (ConfigurationException e) {
                throw new ConfigurationException(Constants.LABELS_FILE + "=" + file.get() + ": " + e.getMessage(), e);
            }
        }
        return configured;
    }

    /** The labels file a setting or an annotation names; not found, an error that says what a labels file is. */
    private DatasetSource locate(String name, Class<?> evalClass, String declaredBy) {
        try {
            return DatasetFiles.locate(name, evalClass, configuration.projectRoot());
        }
        catch (DatasetNotFoundException e) {
            throw new ConfigurationException("Labels file '" + name + "' (" + declaredBy + ") not found. Looked in: "
                    + String.join("; ", e.lookedIn()) + ". A labels file is a labelling sheet a person filled in: "
                    + "export one with -Darena.labels.export=csv, fill in human_verdict, and put it there; see "
                    + "docs/guides/judges.md", e);
        }
    }

    /** The label with its texts masked, its note printable and cut to size. */
    private HumanLabel shown(HumanLabel label) {
        return new HumanLabel(secrets.redact(label.eval()), secrets.redact(label.caseId()),
                secrets.redact(label.model()), label.outputDigest(), label.verdict(), label.score(),
                LabelText.note(secrets.redact(label.note())), label.location());
    }

    /**
     * Refuses an output labelled twice, differently: two labels of one case and model for the same output (the same
     * digest, or either without one) that disagree would leave which one counts to the order of the rows. The same
     * label twice (a sheet's repeats that answered alike, each labelled alike) says one thing, and is kept.
     *
     * <p>Linear in the labels: agreeing is an equivalence, so a label is checked against at most two earlier labels
     * of each group it shares an output with (its digest's, those without a digest, or all of the case and model's
     * when it has none): the group's first, and the first that said something else.
     */
    private static void checkOnePerOutput(String eval, List<HumanLabel> labels) {
        Map<String, OutputLabels> byCase = new HashMap<>();
        List<String> conflicts = new ArrayList<>();
        int count = 0;
        for (int index = 0; index < labels.size(); index++) {
            HumanLabel label = labels.get(index);
            OutputLabels earlier = byCase.computeIfAbsent(label.caseId() + '\u0000' + label.model(),
                    key -> new OutputLabels());
            Numbered first = earlier.conflicting(label);
            if (first != null) {
                count++;
                if (conflicts.size() < MAX_DUPLICATES) {
                    conflicts.add(label.location() + ": case '" + LabelText.visible(label.caseId()) + "' on "
                            + LabelText.visible(label.model()) + " is labelled " + said(label) + " here but "
                            + said(first.label()) + " at " + first.label().location());
                }
            }
            earlier.add(new Numbered(index, label));
        }
        if (count > 0) {
            throw new ConfigurationException("The labels of " + eval + " label " + count + " output"
                    + (count == 1 ? "" : "s") + " twice, differently, so which label counts would depend on the "
                    + "order of the rows:\n  " + String.join("\n  ", conflicts)
                    + (count > conflicts.size() ? "\n  ..." : "") + "\nKeep one label per case, model and output "
                    + "(output_digest); see docs/guides/judges.md");
        }
    }

    /** A label and its place among the eval's labels. */
    private record Numbered(int index, HumanLabel label) {
    }

    /** Whether two labels say the same: the same verdict and the same score. */
    private static boolean agree(HumanLabel a, HumanLabel b) {
        return a.passed() == b.passed() && Objects.equals(a.score(), b.score());
    }

    /**
     * The labels of a group that may disagree: its first, and the first that disagrees with it. Any later label that
     * disagrees with one of the group disagrees with one of these two (agreeing is an equivalence).
     */
    private static final class Distinct {
        private Numbered first;
        private Numbered other;

        void add(Numbered label) {
            if (first == null) {
                first = label;
            }
            else if (other == null && !agree(first.label(), label.label())) {
                other = label;
            }
        }

        /** The earliest of the group's labels that disagrees with this one, or {@code null}. */
        Numbered conflicting(HumanLabel label) {
            if (first == null) {
                return null;
            }
            if (!agree(first.label(), label)) {
                return first;
            }
            return other;
        }
    }

    /** The earlier labels of one case and model: all, those without a digest, and those of each digest. */
    private static final class OutputLabels {
        private final Distinct all = new Distinct();
        private final Distinct withoutDigest = new Distinct();
        private final Map<String, Distinct> byDigest = new HashMap<>();

        /** The earliest earlier label of the same output that disagrees with this one, or {@code null}. */
        Numbered conflicting(HumanLabel label) {
            if (label.outputDigest() == null) {
                return all.conflicting(label);
            }
            Numbered undigested = withoutDigest.conflicting(label);
            Distinct same = byDigest.get(label.outputDigest());
            Numbered digested = same == null ? null : same.conflicting(label);
            if (undigested == null || digested == null) {
                return undigested == null ? digested : undigested;
            }
            return undigested.index() < digested.index() ? undigested : digested;
        }

        void add(Numbered label) {
            all.add(label);
            if (label.label().outputDigest() == null) {
                withoutDigest.add(label);
            }
            else {
                byDigest.computeIfAbsent(label.label().outputDigest(), digest -> new Distinct()).add(label);
            }
        }
    }

    private static String said(HumanLabel label) {
        return (label.passed() ? "pass" : "fail") + (label.score() == null ? "" : " " + label.score());
    }
}
