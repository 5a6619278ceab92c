package io.icegate.access.unity;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.model.ExternalIdentity;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.UpstreamView;
import io.icegate.access.model.ViewRepresentation;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnityViewNamesTest {

  private static UpstreamView view(NamespacePath ns, String catalog) {
    return new UpstreamView(ns, "v", ExternalIdentity.stable("id"), "{}",
        List.of(new ViewRepresentation("spark", "SELECT 1")), ns, catalog, null, null);
  }

  @Test
  void withTheCatalogPropertySchemasAreRootNamespacesAndOtherCatalogsAreOutOfReach() {
    UnityViewNames names = new UnityViewNames("main");
    UpstreamView v = view(NamespacePath.of("sales"), "main");
    assertThat(names.namespace(v, List.of())).contains(NamespacePath.of("sales"));
    assertThat(names.namespace(v, List.of("crm"))).contains(NamespacePath.of("crm"));
    assertThat(names.namespace(v, List.of("MAIN", "crm"))).contains(NamespacePath.of("crm"));
    assertThat(names.namespace(v, List.of("dev", "crm"))).isEmpty();
    assertThat(names.namespace(v, List.of("a", "b", "c"))).isEmpty();
  }

  @Test
  void withoutItNamespacesAreCatalogAndSchemaAndTwoPartNamesAreInTheViewsCatalog() {
    UnityViewNames names = new UnityViewNames(null);
    UpstreamView v = view(NamespacePath.of("main", "sales"), "main");
    assertThat(names.namespace(v, List.of())).contains(NamespacePath.of("main", "sales"));
    assertThat(names.namespace(v, List.of("crm"))).contains(NamespacePath.of("main", "crm"));
    assertThat(names.namespace(v, List.of("dev", "crm")))
        .contains(NamespacePath.of("dev", "crm"));
    assertThat(names.namespace(view(NamespacePath.of("main", "sales"), null), List.of("crm")))
        .isEmpty();
  }
}
