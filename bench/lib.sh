# Shared by the benchmark scripts: compiles the engine's test tree through the reactor (no install) and sets
#   CP       the engine's test class path, the reactor's modules from target/ (never a stale local repository)
#   APP_CP   the same without JUnit's jars, for the standalone console launcher, which brings its own
#   CONSOLE  junit-platform-console-standalone 1.14.4, copied into $WORK
MVN=${MVN:-mvn}
# one invocation with -am: the reactor resolves arena-junit-annotations to its target/classes, so a fresh clone needs
# no `mvn install` first (the engine's class path is written last, over the annotations'); Maven's errors stay visible
$MVN -q -pl arena-junit-engine -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$PWD/$WORK.classpath"
DEPS=$(tr ':' '\n' < "$WORK.classpath" | grep -v '/dev/agentarena/' | paste -sd: -)
CP="arena-junit-annotations/target/classes:arena-junit-engine/target/classes:arena-junit-engine/target/test-classes:$DEPS"
APP_CP=$(tr ':' '\n' <<< "$CP" | grep -vE '/(junit-|opentest4j|apiguardian)[^/]*\.jar$' | paste -sd: -)
$MVN -q dependency:copy -Dartifact=org.junit.platform:junit-platform-console-standalone:1.14.4 \
    -DoutputDirectory="$PWD/$WORK"
CONSOLE=$PWD/$WORK/junit-platform-console-standalone-1.14.4.jar
FIXTURE=dev.agentarena.junit.engine.fixtures.StreamingBenchmarkFixture
