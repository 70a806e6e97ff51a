package dev.agentarena.junit.engine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apiguardian.api.API;
import org.junit.jupiter.api.Test;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.Source;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.Architectures;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

import dev.agentarena.junit.Eval;

/**
 * Holds the engine's layout in place (issue 10: packages by job, one reporting seam, a tidy public API), so that a
 * change that breaks it fails the build naming every offender. Rules on dependencies, fields and annotations read the
 * bytecode of both modules' main classes with ArchUnit; the file count per package reads the sources.
 *
 * <p>Edges to {@link Constants} in the root package are not dependencies. Its keys are compile-time constants, which
 * {@code javac} inlines, so a class that reads a key keeps no reference to {@code Constants}; the references that do
 * survive are not counted either, since {@code Constants} is a leaf that only names keys and every package may name
 * them. One does survive: {@code config.KnownKeys} reads {@code Constants.class} to know every key, and counted, it
 * would close a cycle root → config → root.
 */
class EngineArchitectureTest {

    private static final String ENGINE = "dev.agentarena.junit.engine";

    /**
     * The main classes of both modules: the engine's own, and the annotations module it is compiled against. Classes
     * they use from elsewhere are not read ({@code archunit.properties}): the rules need only their names.
     */
    private static final JavaClasses MAIN = new ClassFileImporter()
            .importLocations(List.of(Location.of(codeSource(ArenaTestEngine.class)),
                    Location.of(codeSource(Eval.class))));

    /** Where standard output and standard error may be written, and why. */
    private static final Map<String, String> CONSOLE_WRITERS = Map.of(
            ENGINE + ".reporting/ConsoleReporter.java", "the console listener: score lines, summaries, the leaderboard",
            ENGINE + ".scoring/ScorerListing.java", "a command-line main (exec:java@scorers) that prints a listing",
            ENGINE + ".reporting.merge/MergeShards.java", "a command-line main that merges shards and says what it did",
            ENGINE + ".reporting.agreement/ExportLabels.java",
            "a command-line main that writes a labelling sheet and says where",
            ENGINE + ".reporting.report/CompareRuns.java", "a command-line main that compares two runs for CI",
            ENGINE + ".reporting.history/HistoryDrift.java",
            "a command-line main that prints the run history and says what drifted, for CI");

    /**
     * The static fields that hold state which could change, each with why it may: caches that hold what never
     * changes for a class, and arrays that nothing writes to. Anything else is run state and belongs in the run's
     * services ({@code RunServices}, {@code ReportingSession}).
     */
    private static final Map<String, String> STATIC_STATE = Stream.of(
            because("cache: a ClassValue of each scorer class's bytecode model, which is fixed for the class",
                    "scoring.ScorerVersions.MODELS"),
            because("cache: one instance per embedding function class named in the options, as the scorer documents",
                    "scoring.builtin.SemanticScorer.EMBEDDINGS"),
            because("constant: filled once by its static initializer, then only read",
                    "config.KnownKeys.KEYS",
                    "config.KnownKeys.PREFIXES", "reporting.statistics.Binomial.LOG_FACTORIAL"),
            because("cache: facts of this machine (where an interpreter is installed, whether bubblewrap works), "
                    + "probed once per JVM", "sandbox.Installations.CACHE", "sandbox.Sandboxes.BUBBLEWRAPS"),
            because("counter: numbers each program's memory cgroup so that no two runs of the JVM share a name; "
                    + "shared by every run on purpose", "sandbox.MemoryCgroups.COUNTER"),
            because("constant: an empty array, which has no element to replace", "sandbox.StartMarker.EMPTY",
                    "descriptor.ScorerDescriptor.NO_FRAMES"),
            because("cache: the text of a double, which is fixed for the value; bounded, cleared when full",
                    "results.Decimals.MEMO"),
            because("constant: an array that nothing writes to", "models.simulated.SimulatedAnswers.LABEL_SENTENCES",
                    "models.simulated.SimulatedAnswers.NUMBER_SENTENCES",
                    "models.simulated.SimulatedAnswers.CONTAINS_SENTENCES",
                    "reporting.leaderboard.CaseRuns.STATUSES", "results.Decimals.POWERS",
                    "results.Decimals.PATTERNS"),
            because("the models of the cases whose tasks are running, for the application's chat model beans routed "
                    + "by @RouteChatModelsToArena: they live in Spring's context cache, outside any run, and can reach "
                    + "a case only through the JVM; each entry lives exactly as long as its task call",
                    "models.CaseModelScope.CURRENT", "models.CaseModelScope.OPEN"),
            because("the cases whose tasks are running and their spans' ids, for the OpenTelemetry SDK's span "
                    + "processor, which the application's SDK holds outside any run and which reaches a case only "
                    + "through the JVM; each entry lives exactly as long as its case's task; whether a processor "
                    + "exists is a fact of the JVM",
                    "integration.opentelemetry.CaseSpans.CURRENT", "integration.opentelemetry.CaseSpans.OPEN",
                    "integration.opentelemetry.CaseSpans.BY_SPAN", "integration.opentelemetry.CaseSpans.active"))
            .flatMap(Collection::stream)
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));

    private static final int MAX_FILES_PER_PACKAGE = 30;

    @Test
    void readsTheMainClassesOfBothModules() {
        assertThat(MAIN.contain(ArenaTestEngine.class)).as("the engine's classes").isTrue();
        assertThat(MAIN.contain(Eval.class)).as("the annotations module's classes").isTrue();
        assertThat(MAIN.contain(EngineArchitectureTest.class)).as("test classes").isFalse();
        assertThat(MAIN.stream().map(JavaClass::getPackageName)
                .filter(name -> !name.startsWith("dev.agentarena.junit")))
                .as("classes of other projects").isEmpty();
    }

    @Test
    void enginePackagesHaveNoCycles() {
        slices().assignedFrom(EVERY_ENGINE_PACKAGE).should().beFreeOfCycles()
                .ignoreDependency(DescribedPredicate.alwaysTrue(), JavaClass.Predicates.equivalentTo(Constants.class))
                .check(MAIN);
    }

    /**
     * The rule above compares leaf packages; this one compares the top-level groups ({@code models} with
     * {@code models.openai}, ...), where a cycle through subpackages would otherwise go unseen (issue 22:
     * {@code definition → scoring → integration → models → definition}).
     */
    @Test
    void topLevelGroupsOfTheEngineHaveNoCycles() {
        slices().matching(ENGINE + ".(*)..").namingSlices("$1").should().beFreeOfCycles()
                .ignoreDependency(DescribedPredicate.alwaysTrue(), JavaClass.Predicates.equivalentTo(Constants.class))
                .check(MAIN);
    }

    /**
     * How a run flows ({@code docs/architecture/engine.md}): the engine resolves selectors ({@code discovery}) into
     * the test tree ({@code descriptor}), which executes through the run's wiring ({@code execution}); the wiring
     * drives the evaluation core and the outputs, which know nothing of each other; below them the eval as declared,
     * its scorers, parameters, instances, models and the adapters of optional libraries; below them the red team's
     * probes, strategies and canaries, which the definition, the scoring and the simulated models share. The foundations (config,
     * json, datasets, traces, results, labels, secrets, sandbox) may be used by every layer: labels is one because the
     * evaluation core (a labelled manual case) and the reporting (the agreement), which know nothing of each other,
     * both read it.
     */
    @Test
    void layersFollowHowARunFlows() {
        Architectures.layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("Engine").definedBy(ENGINE)
                .layer("Discovery").definedBy(ENGINE + ".discovery..")
                .layer("Descriptor").definedBy(ENGINE + ".descriptor..")
                .layer("Execution").definedBy(ENGINE + ".execution..")
                .layer("Evaluation").definedBy(ENGINE + ".evaluation..")
                .layer("Reporting").definedBy(ENGINE + ".reporting..")
                .layer("Definition").definedBy(ENGINE + ".definition..")
                .layer("Scoring").definedBy(ENGINE + ".scoring..")
                .layer("Parameters").definedBy(ENGINE + ".parameters..")
                .layer("Lifecycle").definedBy(ENGINE + ".lifecycle..")
                .layer("Models").definedBy(ENGINE + ".models..")
                .layer("Integration").definedBy(ENGINE + ".integration..")
                .layer("RedTeam").definedBy(ENGINE + ".redteam..")
                .layer("Tracing").definedBy(ENGINE + ".tracing..")
                .whereLayer("Discovery").mayOnlyBeAccessedByLayers("Engine")
                .whereLayer("Descriptor").mayOnlyBeAccessedByLayers("Engine", "Discovery")
                .whereLayer("Execution").mayOnlyBeAccessedByLayers("Engine", "Descriptor")
                .whereLayer("Evaluation").mayOnlyBeAccessedByLayers("Descriptor", "Execution")
                .whereLayer("Reporting").mayOnlyBeAccessedByLayers("Engine", "Descriptor", "Execution", "Tracing")
                .whereLayer("Definition").mayOnlyBeAccessedByLayers("Discovery", "Descriptor", "Execution",
                        "Evaluation")
                .whereLayer("Scoring").mayOnlyBeAccessedByLayers("Descriptor", "Execution", "Evaluation",
                        "Definition")
                .whereLayer("Parameters").mayOnlyBeAccessedByLayers("Evaluation", "Definition", "Scoring")
                .whereLayer("Lifecycle").mayOnlyBeAccessedByLayers("Descriptor", "Evaluation", "Integration")
                .whereLayer("Models").mayOnlyBeAccessedByLayers("Execution", "Evaluation", "Scoring",
                        "Integration")
                .whereLayer("Integration").mayOnlyBeAccessedByLayers("Descriptor", "Evaluation", "Definition",
                        "Scoring", "Parameters")
                .whereLayer("RedTeam").mayOnlyBeAccessedByLayers("Definition", "Scoring", "Models", "Reporting")
                .whereLayer("Tracing").mayOnlyBeAccessedByLayers("Execution")
                .ignoreDependency(DescribedPredicate.alwaysTrue(), JavaClass.Predicates.equivalentTo(Constants.class))
                .check(MAIN);
    }

    @Test
    void theEvaluationCoreKnowsNothingOfOutputsOrOfTheTestTree() {
        noClasses().that().resideInAPackage(ENGINE + ".evaluation..")
                .should().dependOnClassesThat().resideInAnyPackage(ENGINE + ".reporting..", ENGINE + ".execution..",
                        ENGINE + ".descriptor..", ENGINE + ".discovery..")
                .because("the core sends its events (a result computed, a cost estimated, a model's notice) through "
                        + "EvaluationEvents; the run's wiring in execution/ hands them to the outputs")
                .check(MAIN);
    }

    @Test
    void theEvaluationPipelineTheDefinitionAndTheResultsKnowNothingOfTheJUnitEngineApi() {
        noClasses().that().resideInAnyPackage(ENGINE + ".evaluation..", ENGINE + ".definition..",
                ENGINE + ".results..")
                .should().dependOnClassesThat().resideInAPackage("org.junit.platform.engine..")
                .because("the case pipeline, the eval as declared and the results are the engine's own model; the "
                        + "descriptors adapt them to JUnit")
                .check(MAIN);
    }

    /**
     * OpenTelemetry is optional, and with tracing off none of its classes is loaded: only the run's tracer (reached
     * once the SDK was found; {@code tracing/Tracing}, which the run's wiring asks, names none), the capture's SDK side
     * (the pipeline opens {@code CaseSpans} for every case and asks {@code OpenTelemetryCapture} at the start of a run,
     * so neither may) and the reader of binary trace exports name it ({@code TracingOffTest} checks the loading).
     */
    @Test
    void onlyTheTracerTheCapturesSdkSideAndTheProtobufReaderNameOpenTelemetry() {
        noClasses().that().resideOutsideOfPackages(ENGINE + ".tracing..", ENGINE + ".integration.opentelemetry")
                .and().doNotHaveFullyQualifiedName(ENGINE + ".traces.OtlpProtoReader")
                .and().doNotHaveFullyQualifiedName(ENGINE + ".traces.OtlpProtoReader$1")
                .or().haveFullyQualifiedName(ENGINE + ".tracing.Tracing")
                .or().haveFullyQualifiedName(ENGINE + ".tracing.Tracing$OtelSettings")
                .or().haveSimpleName("CaseSpans").or().haveSimpleName("OpenTelemetryCapture")
                .should().dependOnClassesThat().resideInAPackage("io.opentelemetry..")
                .check(MAIN);
    }

    @Test
    void onlyTheConsoleListenerAndTheListingCommandWriteToTheConsole() {
        DescribedPredicate<JavaClass> consoleWriter = DescribedPredicate.describe(
                "declared in " + String.join(" or ", CONSOLE_WRITERS.keySet()),
                type -> CONSOLE_WRITERS.containsKey(type.getPackageName() + "/"
                        + type.getSource().flatMap(Source::getFileName).orElse("")));

        noClasses().that(DescribedPredicate.not(consoleWriter))
                .should().accessField(System.class, "out")
                .orShould().accessField(System.class, "err")
                .orShould().callMethodWhere(JavaCall.Predicates.target(HasName.Predicates.name("printStackTrace")))
                .because("output leaves through the run's listeners; System.out belongs to the console listener")
                .check(MAIN);
    }

    @Test
    void noStaticFieldHoldsStateThatCouldChange() {
        fields().that().areStatic().and(DescribedPredicate.not(SYNTHETIC))
                .should(holdNothingMutable())
                .check(MAIN);
    }

    @Test
    void everyListedStaticStateStillExists() {
        List<String> stale = new ArrayList<>();
        STATIC_STATE.keySet().forEach(name -> {
            Optional<JavaField> field = field(name);
            if (field.isEmpty() || mutability(field.get()).isEmpty()) {
                stale.add(name);
            }
        });

        assertThat(stale).as("entries of STATIC_STATE that are gone or no longer mutable: remove them").isEmpty();
    }

    @Test
    void noPackageHasMoreThanThirtySourceFiles() {
        Map<String, Long> perPackage = new TreeMap<>();
        for (Path sources : List.of(mainSources(engineModule()), mainSources(annotationsModule()))) {
            perPackage.putAll(sourceFilesPerPackage(sources));
        }

        assertThat(perPackage).as("packages read").containsKeys(ENGINE, ENGINE + ".evaluation", "dev.agentarena.junit");
        assertThat(perPackage.entrySet().stream().filter(entry -> entry.getValue() > MAX_FILES_PER_PACKAGE)
                .map(entry -> entry.getKey() + ": " + entry.getValue() + " files"))
                .as("packages with more than %d source files: split them by job", MAX_FILES_PER_PACKAGE)
                .isEmpty();
    }

    @Test
    void everyPublicTopLevelTypeOfBothModulesHasAnApiStatus() {
        classes().that().arePublic().and().areTopLevelClasses()
                .should().beAnnotatedWith(API.class)
                .because("users and tools must see what they may rely on: @API(status = ...) from apiguardian")
                .check(MAIN);
    }

    @Test
    void noTwoPublicTypesShareASimpleName() {
        Map<String, List<String>> bySimpleName = MAIN.stream()
                .filter(type -> type.isTopLevelClass() && type.getModifiers().contains(JavaModifier.PUBLIC))
                .collect(Collectors.groupingBy(JavaClass::getSimpleName, TreeMap::new,
                        Collectors.mapping(JavaClass::getName, Collectors.toList())));

        assertThat(bySimpleName.values().stream().filter(names -> names.size() > 1).map(names -> names.stream()
                .sorted().collect(Collectors.joining(" and "))))
                .as("public types that share a simple name, so that a user's import picks one by accident")
                .isEmpty();
    }

    /** The engine's static fields, named below its root package, listed with the reason they may change. */
    private static List<Map.Entry<String, String>> because(String reason, String... fields) {
        return Stream.of(fields).map(field -> Map.entry(ENGINE + "." + field, reason)).toList();
    }

    /** Each package of the engine, its root package included, is a slice of its own. */
    private static final SliceAssignment EVERY_ENGINE_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass type) {
            String name = type.getPackageName();
            return name.equals(ENGINE) || name.startsWith(ENGINE + ".") ? SliceIdentifier.of(name)
                    : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the packages of the engine";
        }
    };

    private static final DescribedPredicate<JavaField> SYNTHETIC = DescribedPredicate.describe("synthetic",
            field -> field.getModifiers().contains(JavaModifier.SYNTHETIC));

    private static ArchCondition<JavaField> holdNothingMutable() {
        return new ArchCondition<>("hold nothing that could change, unless listed in STATIC_STATE with a reason") {
            @Override
            public void check(JavaField field, ConditionEvents events) {
                mutability(field).filter(problem -> !STATIC_STATE.containsKey(field.getFullName()))
                        .ifPresent(problem -> events.add(SimpleConditionEvent.violated(field,
                                field.getFullName() + " " + problem)));
            }
        };
    }

    /** Why a static field may hold state that changes, if it may. */
    private static Optional<String> mutability(JavaField field) {
        if (!field.getModifiers().contains(JavaModifier.FINAL)) {
            return Optional.of("is static and not final");
        }
        Field reflected = field.reflect();
        Class<?> type = reflected.getType();
        if (type.isArray()) {
            return Optional.of("is a static array: anyone who reads it can replace its elements");
        }
        if (Collection.class.isAssignableFrom(type) || Map.class.isAssignableFrom(type)) {
            Object value = value(reflected);
            return value == null || unmodifiable(value) ? Optional.empty()
                    : Optional.of("holds a " + value.getClass().getName() + ", which can be added to or changed");
        }
        if (type.getPackageName().equals("java.util.concurrent.atomic") || ThreadLocal.class.isAssignableFrom(type)
                || ClassValue.class.isAssignableFrom(type)) {
            return Optional.of("is a " + type.getSimpleName() + ": state shared by every run in the JVM");
        }
        return Optional.empty();
    }

    private static Object value(Field field) {
        try {
            field.setAccessible(true);
            return field.get(null);
        }
        catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            throw new AssertionError("cannot read " + field + ": " + e, e);
        }
    }

    /** Whether a collection is one of the JDK's unmodifiable ones: {@code List.of}, {@code unmodifiableMap}... */
    private static boolean unmodifiable(Object value) {
        String name = value.getClass().getName();
        return Stream.of("java.util.ImmutableCollections$", "java.util.Collections$Unmodifiable",
                "java.util.Collections$Empty", "java.util.Collections$Singleton").anyMatch(name::startsWith);
    }

    private static Optional<JavaField> field(String fullName) {
        int dot = fullName.lastIndexOf('.');
        String owner = fullName.substring(0, dot);
        return MAIN.contain(owner) ? MAIN.get(owner).tryGetField(fullName.substring(dot + 1)) : Optional.empty();
    }

    /** Where a class was loaded from: a directory of classes or a jar. */
    private static URI codeSource(Class<?> type) {
        try {
            return type.getProtectionDomain().getCodeSource().getLocation().toURI();
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The engine module's directory: its classes are in {@code target/classes} below it. */
    private static Path engineModule() {
        return Path.of(codeSource(ArenaTestEngine.class)).getParent().getParent();
    }

    private static Path annotationsModule() {
        return engineModule().resolveSibling("arena-junit-annotations");
    }

    private static Path mainSources(Path module) {
        Path sources = module.resolve("src/main/java");
        assertThat(sources).as("main sources of %s", module.getFileName()).isDirectory();
        return sources;
    }

    /** The number of Java source files of each package, {@code package-info.java} aside. */
    private static Map<String, Long> sourceFilesPerPackage(Path sources) {
        try (Stream<Path> files = Files.walk(sources)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".java")
                    && !file.getFileName().toString().equals("package-info.java"))
                    .collect(Collectors.groupingBy(file -> sources.relativize(file.getParent()).toString()
                            .replace(file.getFileSystem().getSeparator(), "."), TreeMap::new, Collectors.counting()));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
