package dev.agentarena.junit.engine.execution;

import org.junit.platform.engine.TestDescriptor;

/**
 * A container whose cases are registered as they complete. It lets go of each case once the case is reported: the
 * launcher's test plan has its own record of it, and a run of a million cases would otherwise keep every case node
 * and its scorer nodes reachable from the engine's tree until the run ends.
 */
interface CaseContainer {

    /** Drops a reported case from the children, keeping its parent link so listeners can still walk up from it. */
    void release(TestDescriptor reportedCase);
}
