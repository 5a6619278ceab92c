package io.icegate.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.repo.ResourceCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelJsonTest {

  @Test
  void storedEnvelopeHoldsOnlyItsComponents() throws Exception {
    Instant t = Instant.parse("2025-03-01T10:15:30.123Z");
    Resource<Table> table = new Resource<>("id-1", "acct", 3, 2, t, t.plusSeconds(1),
        new Table("cat", List.of("a.b", "c"), "t", "s3://m.json", Map.of("z", "1", "a", "2")));
    ResourceCodec<Table> codec = new ResourceCodec<>(Table.class);
    byte[] bytes = codec.write(table);
    JsonNode json = ModelJson.mapper().readTree(bytes);
    List<String> members = new ArrayList<>();
    json.fieldNames().forEachRemaining(members::add);
    assertThat(members).containsExactly("accountId", "configurationGeneration", "createdAt",
        "generation", "id", "spec", "updatedAt");
    List<String> specMembers = new ArrayList<>();
    json.get("spec").fieldNames().forEachRemaining(specMembers::add);
    assertThat(specMembers).containsExactly("catalogId", "metadataLocation", "name", "namespace",
        "properties");
    assertThat(json.get("createdAt").asText()).isEqualTo("2025-03-01T10:15:30.123Z");
    assertThat(json.get("spec").get("namespace").get(0).asText()).isEqualTo("a.b");
    assertThat(codec.read(bytes)).isEqualTo(table);
    // Deterministic bytes: the same record always serializes the same way (fingerprints).
    assertThat(codec.write(codec.read(bytes))).isEqualTo(bytes);
  }

  @Test
  void recordsValidateTheirContent() {
    assertInvalid(() -> new Account(""));
    assertInvalid(() -> new Namespace("cat", List.of(), Map.of()));
    assertInvalid(() -> new Namespace("cat", List.of("a", ""), Map.of()));
    assertInvalid(() -> new Namespace("cat", List.of("a\u001Fb"), Map.of()));
    assertInvalid(() -> new Table("cat", List.of("db"), "t", " ", Map.of()));
    assertInvalid(() -> new Catalog("x".repeat(256), null, Map.of()));
    Map<String, String> withNull = new java.util.HashMap<>();
    withNull.put("k", null);
    assertInvalid(() -> new Catalog("c", null, withNull));
    Map<String, String> mutable = new java.util.HashMap<>(Map.of("k", "v"));
    Catalog c = new Catalog("c", null, mutable);
    mutable.put("k2", "v2");
    assertThat(c.properties()).containsOnlyKeys("k");
  }

  @Test
  void namespaceNameIsItsLastSegmentUnderItsParent() {
    Namespace ns = new Namespace("cat", List.of("a", "b", "c"), Map.of());
    assertThat(ns.displayName()).isEqualTo("c");
    assertThat(ns.nameScope()).isEqualTo(NameScope.inCatalog("cat", List.of("a", "b")));
    Namespace moved = ns.withName(NameScope.inCatalog("cat", List.of("x")), "y");
    assertThat(moved.path()).containsExactly("x", "y");
    assertInvalid(() -> ns.withName(NameScope.inCatalog("other", List.of()), "y"));
  }

  private static void assertInvalid(Runnable r) {
    assertThatThrownBy(r::run).isInstanceOfSatisfying(IcegateException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
  }
}
