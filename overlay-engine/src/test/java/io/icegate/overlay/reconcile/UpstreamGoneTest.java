package io.icegate.overlay.reconcile;

import static io.icegate.overlay.reconcile.ReconcileCount.CREATED;
import static io.icegate.overlay.reconcile.ReconcileCount.UNCHANGED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.unity.fixture.UnityCatalogFixture;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Resource;
import io.icegate.core.overlay.ReconcileRuns;
import java.util.List;
import java.util.Map;
import io.icegate.overlay.discovery.SharedDiscovery;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An upstream that stops answering while a reconcile loads its tables (found against a real Unity
 * 0.6.0 killed during a reconcile of 130 tables: the run answered 200 with every later table held
 * UPSTREAM_UNAVAILABLE one by one, held marks written, a success for the schedule): the run fails
 * as a retryable upstream failure, publishes nothing, keeps what it served, and the next run once
 * Unity answers again converges with nothing to do. Alike in a scheduled round, whose shared
 * discovery had answered the authentication check before the loads failed.
 */
class UpstreamGoneTest extends ReconcileWorld {
  @RegisterExtension static final UnityDeltaUpstream upstream = new UnityDeltaUpstream();

  @ParameterizedTest(name = "shared round: {0}")
  @ValueSource(booleans = {false, true})
  void unityStoppingDuringTheLoadsFailsTheRunRetryablyAndKeepsWhatWasServed(boolean shared) {
    List<String> names = List.of("a", "b", "c", "d");
    for (String name : names) {
      String path = "gold/" + name;
      UnityDeltaUpstream.appendAndUpload(upstream.createOrders(scratch, path), path, "EU", 1L);
      upstream.serveOrders("gold", name);
    }
    String catalog = UnityDeltaUpstream.catalog(h, warehouse);
    String overlay = upstream.overlay(h, "gold", catalog, "gold");
    UnityCatalogFixture unity = upstream.unity();
    int start = unity.requests().size();
    assertThat(h.reconcile(overlay).count(CREATED)).isEqualTo(names.size());
    List<String> first = unity.requests().subList(start, unity.requests().size());
    int throughListing = indexOfListing(first) + 1;
    Map<String, Resource<?>> served = h.relations(catalog);

    // The next run asks as the first did; Unity answers up to the tables' listing, then nothing.
    start = unity.requests().size();
    unity.stopAnsweringAfter(throughListing);
    assertThatThrownBy(() -> reconcile(overlay, shared)).isInstanceOfSatisfying(IcegateException.class,
        e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.UPSTREAM_UNAVAILABLE);
          assertThat(e.getMessage()).contains("stopped answering during discovery",
              "of " + names.size() + " loads failed): cannot reach the Unity catalog at");
        });
    List<String> second = unity.requests().subList(start, unity.requests().size());
    assertThat(indexOfListing(second)).isEqualTo(throughListing - 1); // the listing was answered
    assertThat(second).anyMatch(r -> r.contains("/tables/main.gold.")); // the loads were tried
    assertThat(h.relations(catalog)).isEqualTo(served);

    unity.answerAgain();
    ReconcileReport recovered = reconcile(overlay, shared);
    assertThat(recovered.held()).isEmpty();
    assertThat(recovered.count(UNCHANGED)).isEqualTo(names.size());
    assertThat(h.relations(catalog)).isEqualTo(served);
  }

  /** A run on request, or one Overlay's run of a scheduled round (a shared discovery). */
  private ReconcileReport reconcile(String overlay, boolean shared) {
    if (!shared) {
      return h.reconcile(overlay);
    }
    Reconciler reconciler = h.reconciler(ReconcileHook.NONE);
    ReconcileRuns.Ticket ticket = ((ReconcileRuns.Started) reconciler.begin(h.account, overlay,
        UUID.randomUUID().toString())).ticket();
    try (SharedDiscovery round = new SharedDiscovery()) {
      return reconciler.execute(reconciler.handle(h.account, overlay, ticket).with(round),
          new ReconcileProgress());
    }
  }

  private static int indexOfListing(List<String> requests) {
    for (int i = 0; i < requests.size(); i++) {
      if (requests.get(i).startsWith("GET " + UnityCatalogFixture.API + "tables?")) {
        return i;
      }
    }
    throw new AssertionError("no tables listing in " + requests);
  }
}
