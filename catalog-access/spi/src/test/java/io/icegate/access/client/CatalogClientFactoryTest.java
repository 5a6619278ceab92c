package io.icegate.access.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.CatalogProtocol;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CatalogClientFactoryTest {

  private final CatalogClientFactory factory = CatalogClientFactory.load();

  @Test
  void findsTheSingleRegisteredProvider() {
    assertThat(factory.provider(CatalogProtocol.DELTA_SHARING))
        .isInstanceOf(RegisteredTestProviders.DeltaSharing.class);
  }

  @Test
  void missingProviderFailsExplicitly() {
    assertThatThrownBy(() -> factory.provider(CatalogProtocol.ICEBERG_REST))
        .isInstanceOfSatisfying(
            CatalogAccessException.class,
            e -> assertThat(e.code()).isEqualTo(Code.PROVIDER_UNAVAILABLE))
        .hasMessageContaining("ICEBERG_REST");
    CatalogConnectionConfig config =
        new CatalogConnectionConfig(
            CatalogProtocol.ICEBERG_REST, URI.create("http://127.0.0.1:1/"), Map.of(), null);
    assertThatThrownBy(() -> factory.open(config, null))
        .isInstanceOfSatisfying(
            CatalogAccessException.class,
            e -> assertThat(e.code()).isEqualTo(Code.PROVIDER_UNAVAILABLE));
  }

  @Test
  void duplicateProvidersFailExplicitly() {
    assertThatThrownBy(() -> factory.provider(CatalogProtocol.UNITY))
        .isInstanceOfSatisfying(
            CatalogAccessException.class,
            e -> assertThat(e.code()).isEqualTo(Code.PROVIDER_UNAVAILABLE))
        .hasMessageContaining("FirstUnity")
        .hasMessageContaining("SecondUnity");
  }
}
