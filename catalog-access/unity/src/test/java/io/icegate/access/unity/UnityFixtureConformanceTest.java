package io.icegate.access.unity;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.NamespacePath;
import io.unitycatalog.client.model.CatalogInfo;
import io.unitycatalog.client.model.ListCatalogsResponse;
import io.unitycatalog.client.model.ListSchemasResponse;
import io.unitycatalog.client.model.ListTablesResponse;
import io.unitycatalog.client.model.SchemaInfo;
import io.unitycatalog.client.model.TableInfo;
import io.unitycatalog.client.model.TemporaryCredentials;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Keeps the fixture honest: every successful response body it sent while the provider exercised
 * every operation is decoded with unitycatalog-client 0.6.0's generated models (from Unity
 * Catalog's published OpenAPI), with unknown members refused, so a member the published API does
 * not define, or a wrongly typed one, fails here.
 */
class UnityFixtureConformanceTest {

  @Test
  void everyFixtureResponseDecodesWithThePublishedModels() throws Exception {
    ObjectMapper strict =
        new ObjectMapper()
            .findAndRegisterModules()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
    try (UnityEnvironment env = new UnityEnvironment()) {
      Map<String, String> columns = new LinkedHashMap<>();
      columns.put("id", "long");
      columns.put("name", "string");
      for (int i = 0; i < 3; i++) {
        env.unity.addSchema("main", "s" + i);
      }
      env.unity.addTable("main", "s0", "t", "EXTERNAL", "DELTA", env.location("c/t"), columns);
      env.log.commitSchema("c/t", 0, columns);
      env.unity.addView("main", "s0", "v", "SELECT 1", columns);
      try (CatalogClient client = env.open(Map.of())) {
        client.validate();
        client.listNamespaces(NamespacePath.root());
        client.listNamespaces(NamespacePath.of("main"));
        client.listNamespaces(NamespacePath.of("main", "s0"));
        client.listObjects(NamespacePath.of("main"), Set.of(CatalogObjectKind.TABLE));
        client.listObjects(
            NamespacePath.of("main", "s0"), Set.of(CatalogObjectKind.TABLE, CatalogObjectKind.VIEW));
        client.loadTable(NamespacePath.of("main", "s0"), "t");
        client.loadView(NamespacePath.of("main", "s0"), "v");
        client.vendStorageCredentials(NamespacePath.of("main", "s0"), "t");
      }
      Set<Class<?>> decodedAs = new HashSet<>();
      List<String> bodies = env.unity.bodies();
      assertThat(bodies).isNotEmpty();
      for (String entry : bodies) {
        String path = entry.substring(0, entry.indexOf(' '));
        String body = entry.substring(entry.indexOf(' ') + 1);
        String op = path.substring("/api/2.1/unity-catalog/".length());
        Class<?> model;
        if (op.equals("catalogs")) {
          model = ListCatalogsResponse.class;
        } else if (op.startsWith("catalogs/")) {
          model = CatalogInfo.class;
        } else if (op.equals("schemas")) {
          model = ListSchemasResponse.class;
        } else if (op.startsWith("schemas/")) {
          model = SchemaInfo.class;
        } else if (op.equals("tables")) {
          model = ListTablesResponse.class;
        } else if (op.startsWith("tables/")) {
          model = TableInfo.class;
        } else if (op.equals("temporary-table-credentials")) {
          model = TemporaryCredentials.class;
        } else {
          throw new AssertionError("a fixture response without a model: " + path);
        }
        assertThat(strict.readValue(body, model)).as(path).isNotNull();
        decodedAs.add(model);
      }
      assertThat(decodedAs)
          .contains(
              ListCatalogsResponse.class,
              CatalogInfo.class,
              ListSchemasResponse.class,
              SchemaInfo.class,
              ListTablesResponse.class,
              TableInfo.class,
              TemporaryCredentials.class);
    }
  }
}
