package io.icegate.gateway.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.store.testing.FaultInjectingEngine;
import io.icegate.core.store.testing.FaultInjectingEngine.Fault;
import io.icegate.gateway.testing.GatewayFixture;
import java.net.http.HttpResponse;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A store commit whose result is unknown (FoundationDB 1021) answers 500 {@code
 * CommitStateUnknownException}, never 409 or 503: the client must not retry blindly, the commit
 * may have applied. Runs the gateway on the in-memory store (FoundationDB's optimistic
 * concurrency) wrapped in the fault injector from core's test-jar.
 */
class CommitOutcomeTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  private FaultInjectingEngine engine;
  private GatewayFixture gateway;
  private RESTCatalog catalog;
  private String prefix;

  @BeforeEach
  void start() {
    engine = new FaultInjectingEngine(InMemoryEngine.create());
    gateway = GatewayFixture.start(new EngineKvStore(engine));
    catalog = gateway.client();
    prefix = gateway.prefix();
    catalog.createNamespace(Namespace.of("ns"));
    catalog.createTable(TableIdentifier.of("ns", "t"), SCHEMA);
  }

  @AfterEach
  void stop() throws Exception {
    catalog.close();
    gateway.close();
  }

  @ParameterizedTest
  @EnumSource(value = Fault.class, names = {"COMMIT_UNKNOWN_APPLIED", "COMMIT_UNKNOWN_NOT_APPLIED"})
  void unknownCommitResultIs500CommitStateUnknown(Fault fault) {
    engine.failAt(engine.commitsSeen() + 1, fault);
    HttpResponse<String> response = gateway.send("POST",
        "/iceberg/v1/" + prefix + "/namespaces/ns/tables/t",
        "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\","
            + "\"updates\":{\"k\":\"v\"}}]}");
    assertThat(engine.injected()).hasSize(1);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(500);
    assertThat(response.body()).contains("\"type\":\"CommitStateUnknownException\"");
  }

  @ParameterizedTest
  @EnumSource(value = Fault.class, names = {"COMMIT_UNKNOWN_APPLIED", "COMMIT_UNKNOWN_NOT_APPLIED"})
  void unknownResultOfAMultiTableTransactionIs500(Fault fault) {
    engine.failAt(engine.commitsSeen() + 1, fault);
    HttpResponse<String> response = gateway.send("POST",
        "/iceberg/v1/" + prefix + "/transactions/commit",
        "{\"table-changes\":[{\"identifier\":{\"namespace\":[\"ns\"],\"name\":\"t\"},"
            + "\"requirements\":[],\"updates\":[{\"action\":\"set-properties\","
            + "\"updates\":{\"k\":\"v\"}}]}]}");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(500);
    assertThat(response.body()).contains("\"type\":\"CommitStateUnknownException\"");
  }

  @ParameterizedTest
  @EnumSource(value = Fault.class, names = {"CONFLICT"})
  void aConflictIsRetriedByTheStoreAndSucceeds(Fault fault) {
    engine.failAt(engine.commitsSeen() + 1, fault);
    HttpResponse<String> response = gateway.send("POST",
        "/iceberg/v1/" + prefix + "/namespaces/ns/tables/t",
        "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\","
            + "\"updates\":{\"k\":\"v\"}}]}");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(catalog.loadTable(TableIdentifier.of("ns", "t")).properties())
        .containsEntry("k", "v");
  }
}
