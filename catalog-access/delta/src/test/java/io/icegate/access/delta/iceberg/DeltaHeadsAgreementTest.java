package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StructType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** A remembered head against Kernel's full load of the same version. */
class DeltaHeadsAgreementTest extends LocalLakeTest {

  @Test
  void aSchemaChangeSinceGivesTheFullLoadsHead() {
    DeltaHeads heads = new DeltaHeads();
    delta.create(
        "schema", DeltaVersionCaptureTest.ORDERS, List.of("region"),
        Map.of("delta.columnMapping.mode", "name"));
    String path = delta.location("schema");
    heads.remember(delta.engine(), path, delta.snapshot("schema"));
    StructType wider = delta.snapshot("schema").getSchema().add("extra", LongType.LONG, true);
    delta.changeSchema("schema", wider);
    assertThat(heads.since(delta.engine(), path)).contains(fullHead("schema"));
  }

  @Test
  void aPropertyChangeSinceGivesTheFullLoadsHead() {
    DeltaHeads heads = new DeltaHeads();
    String path = table("props");
    heads.remember(delta.engine(), path, delta.snapshot("props"));
    delta.changeProperties("props", Map.of("probe.owner", "ann"));
    lakes.append("props", "US", 5);
    delta.changeProperties("props", Map.of("probe.owner", "bob"));
    assertThat(heads.since(delta.engine(), path)).contains(fullHead("props"));
  }

  @Test
  void aCheckpointAndMoreCommitsSinceGiveTheFullLoadsHead() {
    DeltaHeads heads = new DeltaHeads();
    String path = table("cp");
    heads.remember(delta.engine(), path, delta.snapshot("cp"));
    for (int i = 0; i < 3; i++) {
      lakes.append("cp", "EU", 10 + i);
    }
    delta.checkpoint("cp");
    lakes.append("cp", "US", 20);
    assertThat(heads.since(delta.engine(), path)).contains(fullHead("cp"));
  }

  /** Two threads read heads of one table through one DeltaHeads while it gains commits. */
  @Test
  void concurrentReadsOfOneTableAgreeWithTheLog() throws Exception {
    DeltaHeads heads = new DeltaHeads();
    String path = table("conc");
    heads.remember(delta.engine(), path, delta.snapshot("conc"));
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 6; round++) {
        lakes.append("conc", round % 2 == 0 ? "EU" : "US", 100 + round);
        List<Future<Optional<DeltaHeads.Head>>> reads = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
          reads.add(pool.submit(() -> heads.since(delta.engine(), path)));
        }
        DeltaHeads.Head full = fullHead("conc");
        for (Future<Optional<DeltaHeads.Head>> read : reads) {
          read.get().ifPresent(h -> assertThat(h).isEqualTo(full));
        }
        assertThat(heads.since(delta.engine(), path)).contains(full);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
