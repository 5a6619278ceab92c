package io.icegate.overlay.viewsql;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.model.ExternalIdentity;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.UpstreamView;
import io.icegate.access.model.ViewRepresentation;
import io.icegate.access.model.ViewSqlNames;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Nested;

/**
 * The rewriter over Unity's naming as the Unity provider defines it (three levels, relative to the
 * view's catalog and schema); the provider's own rule is tested with the provider
 * ({@code UnityViewNamesTest}) and the whole path in {@code ProviderOverlaysTest}.
 */
class ViewSqlRewriterTest {

  /** Overlay materializing sales.orders, sales.customers, sales.`order items`, crm.accounts. */
  private static final MaterializedNames SELECTED = new MaterializedNames(List.of(
      List.of("sales", "orders"), List.of("sales", "customers"),
      List.of("sales", "order items"), List.of("crm", "accounts")));

  /** Unity with the Integration's {@code catalog} = main: schemas are root namespaces. */
  private static final ViewSqlNames MAIN = (view, q) -> switch (q.size()) {
    case 0 -> Optional.of(view.defaultNamespace());
    case 1 -> Optional.of(NamespacePath.of(q.get(0)));
    case 2 -> q.get(0).equalsIgnoreCase("main") ? Optional.of(NamespacePath.of(q.get(1)))
        : Optional.empty();
    default -> Optional.empty();
  };

  /** A view main.sales.v as the Unity provider loads it. */
  private static final UpstreamView VIEW = view(NamespacePath.of("sales"), "main");

  private static UpstreamView view(NamespacePath ns, String catalog) {
    return new UpstreamView(ns, "v", ExternalIdentity.stable("id-v"), "{}",
        List.of(new ViewRepresentation("spark", "SELECT 1")), ns, catalog, null, null);
  }

  private static ViewSqlRewriter.Result rewrite(String sql) {
    return new ViewSqlRewriter(MAIN, SELECTED).rewrite(VIEW, sql);
  }

  private static String rewritten(String sql) {
    ViewSqlRewriter.Result result = rewrite(sql);
    assertThat(result.unresolved()).as(sql).isEmpty();
    return result.sql();
  }

  @Test
  void threePartNamesLoseTheCatalog() {
    ViewSqlRewriter.Result r = rewrite("SELECT * FROM main.sales.orders WHERE id > 10");
    assertThat(r.sql()).isEqualTo("SELECT * FROM sales.orders WHERE id > 10");
    assertThat(r.changed()).isTrue();
    assertThat(r.resolved()).isTrue();
  }

  @Test
  void twoPartNamesRelativeToTheViewsCatalogAlreadyNameTheTarget() {
    ViewSqlRewriter.Result r = rewrite("SELECT * FROM crm.accounts");
    assertThat(r.sql()).isEqualTo("SELECT * FROM crm.accounts");
    assertThat(r.changed()).isFalse();
    assertThat(r.resolved()).isTrue();
  }

  @Test
  void unqualifiedNamesResolveInTheViewsSchemaAndTakeTheMaterializedSpelling() {
    assertThat(rewritten("SELECT * FROM Orders")).isEqualTo("SELECT * FROM orders");
    assertThat(rewrite("SELECT * FROM accounts").unresolved()).singleElement().asString()
        .contains("accounts is not materialized").contains("sales.accounts");
  }

  @Test
  void namesCompareWithoutCaseAndTakeTheMaterializedSpelling() {
    assertThat(rewritten("select * from MAIN.Sales.ORDERS")).isEqualTo("select * from sales.orders");
  }

  @Test
  void backquotedPartsStayQuotedAndOddNamesAreQuoted() {
    assertThat(rewritten("SELECT * FROM `main`.`sales`.`orders`"))
        .isEqualTo("SELECT * FROM `sales`.`orders`");
    assertThat(rewritten("SELECT * FROM main.sales.`Order Items` oi"))
        .isEqualTo("SELECT * FROM sales.`order items` oi");
    assertThat(rewritten("SELECT * FROM main . sales . orders"))
        .isEqualTo("SELECT * FROM sales.orders");
  }

  @Test
  void namesInStringsAndCommentsAreNotReferences() {
    // A raw string ends at its first quote (no escapes): r'a\' is the text a\.
    String sql = "SELECT 'main.sales.orders' AS a, \"FROM main.hr.pay\" AS b, r'a\\' AS c,"
        + " 'FROM main.hr.x' AS d -- FROM main.hr.salaries\\\n FROM main.hr.continued\n"
        + "/* FROM main.hr.salaries /* nested */ FROM main.hr.bonus */"
        + " FROM main.sales.orders";
    int last = sql.lastIndexOf("main.sales.orders");
    assertThat(rewritten(sql)).isEqualTo(sql.substring(0, last) + "sales.orders");
    assertThat(rewritten("SELECT 'it''s', 'a\\'b' FROM main.sales.orders"))
        .isEqualTo("SELECT 'it''s', 'a\\'b' FROM sales.orders");
  }

  @Test
  void cteNamesAndAliasesAreNotRewritten() {
    String sql = "WITH recent AS (SELECT * FROM main.sales.orders WHERE ts > now()),"
        + " top(cid) AS (SELECT cid FROM recent)"
        + " SELECT r.* FROM recent r JOIN top AS t ON r.cid = t.cid"
        + " JOIN main.sales.customers c ON c.id = r.cid";
    assertThat(rewritten(sql)).isEqualTo("WITH recent AS (SELECT * FROM sales.orders WHERE ts >"
        + " now()), top(cid) AS (SELECT cid FROM recent) SELECT r.* FROM recent r JOIN top AS t"
        + " ON r.cid = t.cid JOIN sales.customers c ON c.id = r.cid");
    // A CTE named like a materialized table shadows it, and its body still names the table.
    assertThat(rewritten("WITH orders AS (SELECT * FROM main.sales.orders) SELECT * FROM orders"))
        .isEqualTo("WITH orders AS (SELECT * FROM sales.orders) SELECT * FROM orders");
  }

  @Test
  void joinsAndCommaListsRewriteEveryRelation() {
    String sql = "SELECT o.id FROM main.sales.orders o LEFT OUTER JOIN main.sales.customers AS c"
        + " ON o.cid = c.id AND c.region IN ('a', 'b'), main.crm.accounts a"
        + " CROSS JOIN crm.accounts a2 WHERE a.id = o.aid";
    assertThat(rewritten(sql)).isEqualTo("SELECT o.id FROM sales.orders o LEFT OUTER JOIN"
        + " sales.customers AS c ON o.cid = c.id AND c.region IN ('a', 'b'), crm.accounts a"
        + " CROSS JOIN crm.accounts a2 WHERE a.id = o.aid");
  }

  @Test
  void subqueriesInFromWhereAndSelectAreRewrittenButFunctionArgumentsAreNot() {
    String sql = "SELECT extract(YEAR FROM t.ts) AS y, trim(BOTH FROM t.name),"
        + " (SELECT max(id) FROM main.crm.accounts) AS m"
        + " FROM (SELECT * FROM main.sales.orders) t"
        + " WHERE t.cid IN (SELECT id FROM main.sales.customers)"
        + " AND EXISTS (SELECT 1 FROM (main.sales.orders o2 JOIN sales.customers c2 ON true))"
        + " UNION ALL SELECT 1, 'x', 2 FROM range(3) TABLESAMPLE (10 PERCENT)";
    assertThat(rewritten(sql)).isEqualTo("SELECT extract(YEAR FROM t.ts) AS y, trim(BOTH FROM"
        + " t.name), (SELECT max(id) FROM crm.accounts) AS m FROM (SELECT * FROM sales.orders) t"
        + " WHERE t.cid IN (SELECT id FROM sales.customers)"
        + " AND EXISTS (SELECT 1 FROM (sales.orders o2 JOIN sales.customers c2 ON true))"
        + " UNION ALL SELECT 1, 'x', 2 FROM range(3) TABLESAMPLE (10 PERCENT)");
  }

  @Test
  void columnsQualifiedByARewrittenRelationsFullNameFollowIt() {
    assertThat(rewritten("SELECT main.sales.orders.id, main.sales.orders.* FROM main.sales.orders"
        + " LATERAL VIEW explode(main.sales.orders.tags) x AS tag, pos"))
        .isEqualTo("SELECT sales.orders.id, sales.orders.* FROM sales.orders"
            + " LATERAL VIEW explode(sales.orders.tags) x AS tag, pos");
  }

  @Test
  void aNameOutsideTheOverlayKeepsTheWholeSqlAndIsNamed() {
    String sql = "SELECT * FROM main.sales.orders JOIN main.hr.salaries s ON true"
        + " JOIN other.sales.orders x ON true";
    ViewSqlRewriter.Result r = rewrite(sql);
    assertThat(r.sql()).isEqualTo(sql);
    assertThat(r.changed()).isFalse();
    assertThat(r.unresolved()).hasSize(2);
    assertThat(r.unresolved().get(0)).startsWith("main.hr.salaries is not materialized by this"
        + " Overlay");
    assertThat(r.unresolved().get(1)).startsWith("other.sales.orders names a catalog or schema"
        + " this Integration does not reach");
    assertThat(rewrite("SELECT * FROM a.b.c.d").unresolved()).singleElement().asString()
        .startsWith("a.b.c.d names a catalog or schema");
  }

  @Test
  void aNameMatchingObjectsThatDifferOnlyInCaseIsAmbiguous() {
    MaterializedNames twoCases = new MaterializedNames(List.of(
        List.of("sales", "Orders"), List.of("sales", "orders")));
    ViewSqlRewriter.Result r = new ViewSqlRewriter(MAIN, twoCases)
        .rewrite(VIEW, "SELECT * FROM main.sales.ORDERS");
    assertThat(r.sql()).isEqualTo("SELECT * FROM main.sales.ORDERS");
    assertThat(r.unresolved()).singleElement().asString()
        .isEqualTo("main.sales.ORDERS is ambiguous: it matches [sales.Orders, sales.orders],"
            + " which differ only in case");
  }

  @Test
  void computedNamesAndUnreadableSqlAreUnresolved() {
    assertThat(rewrite("SELECT * FROM IDENTIFIER('main.sales.orders')").unresolved())
        .singleElement().asString().startsWith("IDENTIFIER(...) at offset 14");
    ViewSqlRewriter.Result open = rewrite("SELECT 'x FROM main.sales.orders");
    assertThat(open.sql()).isEqualTo("SELECT 'x FROM main.sales.orders");
    assertThat(open.unresolved()).singleElement().asString()
        .isEqualTo("the SQL does not read as Spark SQL: unclosed string literal at offset 7");
  }

  @Test
  void rewritingIsDeterministicAndARewrittenSqlRewritesToItself() {
    String sql = "SELECT * FROM main.sales.orders o JOIN main.crm.accounts a ON o.aid = a.id";
    String once = rewritten(sql);
    assertThat(rewritten(sql)).isEqualTo(once);
    ViewSqlRewriter.Result again = rewrite(once);
    assertThat(again.sql()).isEqualTo(once);
    assertThat(again.changed()).isFalse();
  }

  @Nested
  class WithoutTheCatalogProperty {
    /** Unity without {@code catalog}: namespaces are [catalog, schema]. */
    private final ViewSqlNames all = (view, q) -> switch (q.size()) {
      case 0 -> Optional.of(view.defaultNamespace());
      case 1 -> Optional.of(NamespacePath.of(view.defaultCatalog(), q.get(0)));
      case 2 -> Optional.of(NamespacePath.of(q.get(0), q.get(1)));
      default -> Optional.empty();
    };
    private final MaterializedNames materialized = new MaterializedNames(List.of(
        List.of("main", "sales", "orders"), List.of("dev", "sales", "orders")));
    private final UpstreamView viewInMain = view(NamespacePath.of("main", "sales"), "main");

    @Test
    void twoPartNamesGainTheViewsCatalogAndThreePartNamesStay() {
      ViewSqlRewriter rewriter = new ViewSqlRewriter(all, materialized);
      assertThat(rewriter.rewrite(viewInMain, "SELECT * FROM sales.orders JOIN dev.sales.orders d"
          + " ON true JOIN orders o ON true").sql())
          .isEqualTo("SELECT * FROM main.sales.orders JOIN dev.sales.orders d ON true"
              + " JOIN orders o ON true");
    }
  }
}
