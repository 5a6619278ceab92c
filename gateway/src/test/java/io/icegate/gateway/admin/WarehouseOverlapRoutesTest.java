package io.icegate.gateway.admin;

import static io.icegate.gateway.testing.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * Warehouses of different accounts over the admin API: a Catalog whose warehouse equals, contains
 * or lies inside one of another account's Catalogs is 409 {@code WAREHOUSE_OVERLAP}, whose
 * problem names neither that account nor its Catalog; deleting the other Catalog frees the
 * warehouse. Catalogs of one account may share a warehouse.
 */
class WarehouseOverlapRoutesTest extends AdminOverHttp {

  @Test
  void anotherAccountsWarehouseIsRefusedUntilItsCatalogIsDeleted() {
    String id = json(create(base(), "secret-sales", "s3://shared/w")).get("id").asText();
    String other = "/admin/v1/accounts/" + json(gw.send("POST", "/admin/v1/accounts",
        "{\"name\":\"intruder\"}")).get("id").asText();

    for (String warehouse : new String[] {"s3://shared/w", "s3://shared/w/their-tables",
        "s3://shared", "s3://shared//w/"}) {
      HttpResponse<String> refused = create(other, "mine", warehouse);
      assertProblem(refused, 409, "WAREHOUSE_OVERLAP");
      assertThat(json(refused).get("detail").asText())
          .isEqualTo("warehouse " + warehouse + " overlaps a warehouse of another account");
      assertThat(refused.body()).doesNotContain(account, "acme", id, "secret-sales");
    }
    assertThat(create(other, "sibling", "s3://shared/wx").statusCode()).isEqualTo(201);
    HttpResponse<String> same = create(base(), "same-account", "s3://shared/w");
    assertThat(same.statusCode()).isEqualTo(201);
    String sameAccount = json(same).get("id").asText();

    assertThat(gw.send("DELETE", base() + "/catalogs/" + id, null).statusCode()).isEqualTo(204);
    assertProblem(create(other, "mine", "s3://shared/w"), 409, "WAREHOUSE_OVERLAP");
    assertThat(gw.send("DELETE", base() + "/catalogs/" + sameAccount, null).statusCode())
        .isEqualTo(204);
    assertThat(create(other, "mine", "s3://shared/w").statusCode()).isEqualTo(201);
  }

  @Test
  void aWarehouseWithADotDotSegmentIsRefused() {
    assertProblem(create(base(), "escape", "s3://bucket/w/../other"), 400, "INVALID_ARGUMENT");
    assertProblem(create(base(), "escape", "file:/tmp/a/.."), 400, "INVALID_ARGUMENT");
  }

  private HttpResponse<String> create(String accountPath, String name, String warehouse) {
    return gw.send("POST", accountPath + "/catalogs",
        "{\"name\":\"" + name + "\",\"warehouse\":\"" + warehouse + "\"}");
  }
}
