package io.icegate.gateway.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.gateway.testing.FederatedCatalog;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 10, "Reading through the gateway": after a reconcile (which captures), load-table of a
 * managed table answers the captured upstream metadata — snapshots, refs, snapshot log, schemas,
 * the upstream UUID — over real HTTP, to iceberg-core's RESTCatalog and to raw requests; an
 * upstream commit and a reconcile give a new snapshot and a new ETag; {@code snapshots=refs}
 * keeps only referenced snapshots. Each capture is validated clean (through core) so the table is
 * visible.
 */
class CapturedTableLoadTest {
  private static FederatedCatalog fed;
  private static RESTCatalog client;

  @BeforeAll
  static void start() throws Exception {
    fed = FederatedCatalog.start();
    fed.appendUpstream(FederatedCatalog.ORDERS);
    JsonNode report = fed.reconcile();
    assertThat(report.get("captured").asInt()).as(report.toString()).isGreaterThanOrEqualTo(1);
    fed.validate(FederatedCatalog.ORDERS);
    client = fed.gateway().client();
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    ContributionInvariants.checker(fed.gateway().gateway().store()).assertClean();
    fed.close();
  }

  @Test
  void restCatalogSeesTheUpstreamSnapshotsRefsAndIdentity() {
    TableMetadata upstream = fed.upstreamMetadata(FederatedCatalog.ORDERS);
    Table table = client.loadTable(FederatedCatalog.ORDERS);
    assertThat(table.uuid().toString()).isEqualTo(upstream.uuid());
    assertThat(table.schema().sameSchema(IcebergRestFixture.ORDERS_SCHEMA)).isTrue();
    assertThat(table.schema().schemaId()).isEqualTo(upstream.currentSchemaId());
    assertThat(table.currentSnapshot()).isNotNull();
    assertThat(table.currentSnapshot().snapshotId())
        .isEqualTo(upstream.currentSnapshot().snapshotId());
    assertThat(table.refs().get(SnapshotRef.MAIN_BRANCH).snapshotId())
        .isEqualTo(upstream.ref(SnapshotRef.MAIN_BRANCH).snapshotId());
    assertThat(table.history()).extracting(h -> h.snapshotId())
        .containsExactlyElementsOf(upstream.snapshotLog().stream().map(h -> h.snapshotId())
            .toList());
    assertThat(table.properties()).containsKey(Captures.CAPTURED_AT_PROPERTY);
    assertThat(table.location()).isEqualTo(upstream.location());
  }

  @Test
  void anUpstreamCommitThenReconcileIsANewSnapshotAndANewEtag() {
    String path = fed.loadPath(FederatedCatalog.ORDERS);
    HttpResponse<String> before = fed.gateway().send("GET", path, null);
    assertThat(before.statusCode()).as(before.body()).isEqualTo(200);
    String etag = before.headers().firstValue("ETag").orElseThrow();
    long firstSnapshot = FederatedCatalog.json(before).at("/metadata/current-snapshot-id").asLong();
    assertThat(FederatedCatalog.json(before).at("/metadata-location").asText())
        .isEqualTo(fed.upstreamMetadata(FederatedCatalog.ORDERS).metadataFileLocation());
    assertThat(fed.gateway().send("GET", path, null, "If-None-Match", etag).statusCode())
        .isEqualTo(304);

    TableMetadata committed = fed.appendUpstream(FederatedCatalog.ORDERS);
    // Nothing is served from upstream before a reconcile captures it.
    assertThat(fed.gateway().send("GET", path, null, "If-None-Match", etag).statusCode())
        .isEqualTo(304);
    fed.reconcile();
    fed.validate(FederatedCatalog.ORDERS);

    HttpResponse<String> after = fed.gateway().send("GET", path, null, "If-None-Match", etag);
    assertThat(after.statusCode()).as(after.body()).isEqualTo(200);
    String newEtag = after.headers().firstValue("ETag").orElseThrow();
    assertThat(newEtag).isNotEqualTo(etag);
    JsonNode metadata = FederatedCatalog.json(after).get("metadata");
    assertThat(metadata.get("current-snapshot-id").asLong())
        .isEqualTo(committed.currentSnapshot().snapshotId())
        .isNotEqualTo(firstSnapshot);
    List<Long> snapshots = new ArrayList<>();
    metadata.get("snapshots").forEach(s -> snapshots.add(s.get("snapshot-id").asLong()));
    assertThat(snapshots).contains(firstSnapshot, committed.currentSnapshot().snapshotId());
    assertThat(fed.gateway().send("GET", path, null, "If-None-Match", newEtag).statusCode())
        .isEqualTo(304);

    Table table = client.loadTable(FederatedCatalog.ORDERS);
    assertThat(table.currentSnapshot().snapshotId())
        .isEqualTo(committed.currentSnapshot().snapshotId());
    // time travel: the earlier captured snapshot is still there
    Snapshot earlier = table.snapshot(firstSnapshot);
    assertThat(earlier).isNotNull();
  }

  @Test
  void snapshotsRefsKeepsOnlyReferencedSnapshotsUnderItsOwnEtag() {
    fed.appendUpstream(FederatedCatalog.ORDERS);
    fed.reconcile();
    fed.validate(FederatedCatalog.ORDERS);
    String path = fed.loadPath(FederatedCatalog.ORDERS);
    HttpResponse<String> all = fed.gateway().send("GET", path, null);
    HttpResponse<String> refs = fed.gateway().send("GET", path + "?snapshots=refs", null);
    JsonNode allMetadata = FederatedCatalog.json(all).get("metadata");
    JsonNode refsMetadata = FederatedCatalog.json(refs).get("metadata");
    assertThat(allMetadata.get("snapshots").size()).isGreaterThan(1);
    assertThat(refsMetadata.get("snapshots").size()).isEqualTo(1);
    assertThat(refsMetadata.get("snapshots").get(0).get("snapshot-id").asLong())
        .isEqualTo(allMetadata.get("current-snapshot-id").asLong());
    assertThat(refs.headers().firstValue("ETag"))
        .isNotEqualTo(all.headers().firstValue("ETag"));
  }
}
