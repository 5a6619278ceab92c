package io.icegate.overlay.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 28's shared discovery, proven by counting the requests the upstream (the Iceberg REST
 * fixture over HTTP on loopback) receives: three Overlays of one Integration with overlapping
 * selections, each into its own Catalog, take part in one round; every namespace is listed, every
 * namespace's objects listed and every table and view loaded once in that round, and each Overlay
 * still publishes its own selection. The same three Overlays reconciled one by one on request
 * (no shared round) ask the upstream for the shared parts once per Overlay, which is what the
 * round saves.
 */
class SharedDiscoveryTest extends JobTestSupport {

  /** Catalog reads of the upstream ({@code GET .../namespaces...}) by request line. */
  private static Map<String, Long> catalogReads() {
    return upstream.requests().requests().stream()
        .filter(line -> line.startsWith("GET ") && line.contains("/namespaces"))
        .collect(Collectors.groupingBy(Function.identity(), TreeMap::new,
            Collectors.counting()));
  }

  /** The root listing: discovery's, and the authentication check is one too. */
  private static boolean rootListing(String line) {
    return line.matches("GET /v1/namespaces(\\?pageToken=)?");
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void oneRoundListsEachNamespaceAndLoadsEachTableOnce(String kind) throws Exception {
    World world = world(kind); // Overlay "sales": include sales
    String emeaAndMarketing = world.w().overlay("emea-marketing", world.integration(),
        world.w().catalog("regional"), List.of(List.of("sales", "emea"), List.of("Marketing")));
    String everything = world.w().overlay("everything", world.integration(),
        world.w().catalog("all"), List.of());
    JobProcess a = process(world, Instant.now());

    for (int round = 1; round <= 2; round++) { // a first publication, then a change-free round
      upstream.requests().clear();
      RoundOutcome outcome = a.runner.runRound(world.account(), world.integration(),
          UpstreamJobRunner.EVERY_OVERLAY);
      assertThat(outcome.state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
      assertThat(outcome.overlays()).hasSize(3);
      Map<String, Long> reads = catalogReads();
      System.out.println("upstream catalog reads of round " + round + " (" + kind + "): "
          + reads.values().stream().mapToLong(Long::longValue).sum() + " " + reads);
      reads.forEach((line, count) -> assertThat(count).as(line)
          .isEqualTo(rootListing(line) ? 2 : 1));
      // the whole tree: 4 namespaces, 3 tables, 1 view
      assertThat(reads.keySet().stream().filter(l -> l.contains("/tables/")).count())
          .isEqualTo(3);
      assertThat(reads.keySet().stream().filter(l -> l.contains("/views/")).count())
          .isEqualTo(1);
    }
    assertThat(world.w().relations(world.catalog())).containsOnlyKeys("sales.orders",
        "sales.order_summary", "sales.emea.customers");
    assertThat(world.w().relations(world.w().overlays().get(world.account(), emeaAndMarketing)
        .spec().catalogId())).containsOnlyKeys("sales.emea.customers", "Marketing.Campaigns");
    assertThat(world.w().relations(world.w().overlays().get(world.account(), everything)
        .spec().catalogId())).hasSize(4);

    // Without a shared round every Overlay's run reads for itself.
    upstream.requests().clear();
    for (String overlay : List.of(world.overlay(), emeaAndMarketing, everything)) {
      world.w().reconcile(overlay);
    }
    Map<String, Long> unshared = catalogReads();
    System.out.println("upstream catalog reads of three runs on request (" + kind + "): "
        + unshared);
    assertThat(count(unshared, "/tables/customers")).isEqualTo(3); // selected by all three
    assertThat(count(unshared, "/tables/orders")).isEqualTo(2); // by sales and everything
  }

  private static long count(Map<String, Long> reads, String fragment) {
    return reads.entrySet().stream().filter(e -> e.getKey().contains(fragment))
        .mapToLong(Map.Entry::getValue).sum();
  }
}
