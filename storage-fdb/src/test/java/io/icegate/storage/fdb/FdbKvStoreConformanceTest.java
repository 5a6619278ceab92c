package io.icegate.storage.fdb;

import io.icegate.core.store.KvStoreConformanceTest;
import io.icegate.core.store.engine.KvEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Core's driver contract against a real FoundationDB cluster, named by the environment variable
 * {@code FDB_CLUSTER_FILE}; reported as skipped, with the reason, when there is none (no cluster
 * can run on the build machines). Touches only keys under {@code KeySubspace.SCRATCH}.
 *
 * <pre>FDB_CLUSTER_FILE=/etc/foundationdb/fdb.cluster ./mvnw -B -pl storage-fdb -am verify</pre>
 */
@ExtendWith(FdbKvStoreConformanceTest.RequiresCluster.class)
class FdbKvStoreConformanceTest extends KvStoreConformanceTest {

  static final String CLUSTER_FILE_VARIABLE = "FDB_CLUSTER_FILE";

  @Override
  protected KvEngine openEngine() {
    return FdbEngine.open(System.getenv(CLUSTER_FILE_VARIABLE));
  }

  /** Enables the suite only when {@code FDB_CLUSTER_FILE} names a readable file. */
  static final class RequiresCluster implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      String clusterFile = System.getenv(CLUSTER_FILE_VARIABLE);
      if (clusterFile == null || clusterFile.isBlank()) {
        return ConditionEvaluationResult.disabled(
            "skipped: " + CLUSTER_FILE_VARIABLE + " is not set; the FoundationDB conformance run"
                + " needs a cluster");
      }
      if (!Files.isReadable(Path.of(clusterFile))) {
        return ConditionEvaluationResult.disabled(
            "skipped: " + CLUSTER_FILE_VARIABLE + "=" + clusterFile + " is not a readable file");
      }
      return ConditionEvaluationResult.enabled("cluster file " + clusterFile);
    }
  }
}
