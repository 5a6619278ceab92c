package io.icegate.overlay.reconcile;

import static io.icegate.overlay.reconcile.UnityDeltaUpstream.LAKE;
import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.overlay.store.capture.Captures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Delta table deleted and written anew at its path up to the version captured, Unity still
 * serving it under the same table entry. Found against a real Unity 0.6.0 server: the reconcile
 * compared only the commit file's name with the capture's and reported the table unchanged, so
 * clients kept being served the old table's files, which were gone ("Location does not exist"),
 * until the next upstream commit. The head's commit identity (Delta table id, size and second of
 * the commit file) now goes with the name. Tables are written by Delta Kernel on s3proxy.
 */
class RewrittenDeltaTableTest extends ReconcileWorld {
  @RegisterExtension static final UnityDeltaUpstream upstream = new UnityDeltaUpstream();

  @Test
  void aTableWrittenAnewUpToTheCapturedVersionIsCapturedAgain() throws Exception {
    KernelTableWriter old = upstream.createOrders(scratch.resolve("old"), "gold/orders");
    UnityDeltaUpstream.appendAndUpload(old, "gold/orders", "EU", 1L, 2L);
    long captured = UnityDeltaUpstream.appendAndUpload(old, "gold/orders", "US", 3L);
    upstream.serveOrders("gold", "orders");
    String catalog = UnityDeltaUpstream.catalog(h, warehouse);
    String overlay = upstream.overlay(h, "gold", catalog, "gold");
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    String tableId = h.relations(catalog).get("gold.orders").id();
    Captures captures = new Captures(h.repos);
    Captures.Capture before = captures.read(h.account, tableId).orElseThrow();

    // written anew a second later at least, as any real rewrite is: commit files of the same size
    // written in the same second cannot be told apart (a documented limit of the commit stamp)
    Thread.sleep(1_100);
    upstream.deleteTable("gold/orders/");
    KernelTableWriter anew = upstream.createOrders(scratch.resolve("new"), "gold/orders");
    UnityDeltaUpstream.appendAndUpload(anew, "gold/orders", "APAC", 7L, 8L);
    assertThat(UnityDeltaUpstream.appendAndUpload(anew, "gold/orders", "APAC", 9L))
        .isEqualTo(captured);

    assertCapturedAgain(overlay, tableId, before,
        "s3://" + LAKE + "/gold/orders/region=APAC=2",
        "s3://" + LAKE + "/gold/orders/region=APAC=1");
  }

  /**
   * A pointer stored before the head's identity was recorded (an upgrade): the first round finds
   * the table unchanged and notes the identity, without a new capture; later rounds write nothing.
   */
  @Test
  void aPointerWithoutTheIdentityGetsItOnceWithoutANewCapture() throws Exception {
    KernelTableWriter delta = upstream.createOrders(scratch.resolve("t"), "silver/orders");
    UnityDeltaUpstream.appendAndUpload(delta, "silver/orders", "EU", 1L);
    upstream.serveOrders("silver", "orders");
    String catalog = UnityDeltaUpstream.catalog(h, warehouse);
    String overlay = upstream.overlay(h, "silver", catalog, "silver");
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    String tableId = h.relations(catalog).get("silver.orders").id();
    assertALegacyPointerGetsTheIdentityOnce(overlay, tableId);
  }
}
