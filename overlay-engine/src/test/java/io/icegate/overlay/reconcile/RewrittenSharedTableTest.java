package io.icegate.overlay.reconcile;

import static io.icegate.overlay.reconcile.UnityDeltaUpstream.LAKE;
import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.access.deltasharing.fixture.DeltaSharingFixture;
import io.icegate.overlay.store.capture.Captures;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A shared Delta table deleted and written anew at its path up to the version captured, the
 * Delta Sharing server still sharing it under the same listing entry (same table id, same name).
 * The reconcile compared only the commit file's name with the capture's and reported the table
 * unchanged, so clients kept being served the old table's deleted files until the next upstream
 * commit. The provider now states the served commit's identity from {@code /metadata} (the Delta
 * table id, {@code metaData.id}, with the version), and the capture pointer records it, as for
 * Unity ({@link RewrittenDeltaTableTest}). Tables are written by Delta Kernel on s3proxy; the
 * fixture states each one's Delta table id as a real server reads it from the log.
 */
class RewrittenSharedTableTest extends ReconcileWorld {
  @RegisterExtension static final UnityDeltaUpstream upstream = new UnityDeltaUpstream();

  private DeltaSharingFixture sharing;

  @BeforeEach
  void share() throws Exception {
    sharing = DeltaSharingFixture.start();
    sharing.vend(new DeltaSharingFixture.Keys(upstream.objects().accessKeyId(),
        upstream.objects().secretAccessKey(), "session"));
  }

  @AfterEach
  void unshare() {
    sharing.close();
  }

  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void aSharedTableWrittenAnewUpToTheCapturedVersionIsCapturedAgain(
      DeltaSharingFixture.Mode mode) throws Exception {
    sharing.mode(mode);
    upstream.deleteTable("shared/orders/"); // the lake is the class's: each mode starts afresh
    KernelTableWriter old = upstream.createOrders(scratch.resolve("old"), "shared/orders");
    UnityDeltaUpstream.appendAndUpload(old, "shared/orders", "EU", 1L, 2L);
    long captured = UnityDeltaUpstream.appendAndUpload(old, "shared/orders", "US", 3L);
    shareOrders(old, captured);
    String catalog = UnityDeltaUpstream.catalog(h, warehouse);
    String overlay = overlay(catalog);
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    String tableId = h.relations(catalog).get("partners.feeds.orders").id();
    Captures captures = new Captures(h.repos);
    Captures.Capture before = captures.read(h.account, tableId).orElseThrow();
    assertThat(before.pointer().upstreamCommit()).startsWith(deltaTableId(old) + "/");

    // no wait: the new table's Delta table id differs, whatever its commit files' times
    upstream.deleteTable("shared/orders/");
    KernelTableWriter anew = upstream.createOrders(scratch.resolve("new"), "shared/orders");
    UnityDeltaUpstream.appendAndUpload(anew, "shared/orders", "APAC", 7L, 8L);
    assertThat(UnityDeltaUpstream.appendAndUpload(anew, "shared/orders", "APAC", 9L))
        .isEqualTo(captured);
    shareOrders(anew, captured);

    assertThat(assertCapturedAgain(overlay, tableId, before,
            "s3://" + LAKE + "/shared/orders/region=APAC=2",
            "s3://" + LAKE + "/shared/orders/region=APAC=1").upstreamCommit())
        .startsWith(deltaTableId(anew) + "/");
  }

  /**
   * A pointer stored before shared tables stated an identity (an upgrade): the first round finds
   * the table unchanged and notes the identity, without a new capture; later rounds write nothing.
   */
  @Test
  void aPointerWithoutTheIdentityGetsItOnceWithoutANewCapture() throws Exception {
    KernelTableWriter delta = upstream.createOrders(scratch.resolve("t"), "kept/orders");
    long version = UnityDeltaUpstream.appendAndUpload(delta, "kept/orders", "EU", 1L);
    sharing.put("partners", "feeds", "orders", table(delta, "kept/orders", version));
    String catalog = UnityDeltaUpstream.catalog(h, warehouse);
    String overlay = overlay(catalog);
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    String tableId = h.relations(catalog).get("partners.feeds.orders").id();
    assertThat(assertALegacyPointerGetsTheIdentityOnce(overlay, tableId).upstreamCommit())
        .isEqualTo(deltaTableId(delta, "kept/orders") + "/" + version);
  }

  /** The server shares the lake's {@code shared/orders} at {@code version} as its log states it. */
  private void shareOrders(KernelTableWriter delta, long version) {
    sharing.put("partners", "feeds", "orders", table(delta, "shared/orders", version));
  }

  /**
   * {@code partners.feeds.orders} (listing id {@code t-orders}, directory access) at {@code
   * version}, with the schema and Delta table id of the log {@code delta} wrote at {@code path}.
   */
  private static DeltaSharingFixture.Table table(KernelTableWriter delta, String path,
      long version) {
    return new DeltaSharingFixture.Table("t-orders", UnityDeltaUpstream.location(path),
        List.of("dir"), version, delta.snapshot(path).getSchema().toJson(), true,
        List.of("region")).at(version, deltaTableId(delta, path));
  }

  private static String deltaTableId(KernelTableWriter delta) {
    return deltaTableId(delta, "shared/orders");
  }

  private static String deltaTableId(KernelTableWriter delta, String path) {
    return delta.snapshot(path).getMetadata().getId();
  }

  /** An Overlay of the share's schema {@code partners.feeds} into {@code catalog}; its id. */
  private String overlay(String catalog) {
    return h.overlay("feeds", h.sharingIntegration("sharing", sharing, upstream.objects()),
        catalog, List.of(List.of("partners", "feeds")));
  }
}
