package io.icegate.gateway.integration;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogClientFactory;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.admin.model.IntegrationType;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.integration.ConnectionSettingsCheck;
import io.icegate.core.model.ResourceKind;
import java.util.Map;
import java.util.Objects;

/**
 * Core's {@link ConnectionSettingsCheck} over the registered catalog-access providers: an
 * Integration's property values are checked by the provider of its type ({@code
 * CatalogClientProvider#checkProperties}), so a value it would refuse at validation (for example
 * {@code delta.sharing.strict-access-modes=yes}) is refused at create and update with 400 {@code
 * CONNECTION_SETTING_REJECTED} naming the property. Provider messages name the property and never
 * the value given.
 */
public final class ProviderSettingsCheck implements ConnectionSettingsCheck {

  private final CatalogClientFactory providers;

  public ProviderSettingsCheck(CatalogClientFactory providers) {
    this.providers = Objects.requireNonNull(providers, "providers");
  }

  @Override
  public void check(IntegrationType type, Map<String, String> properties) {
    try {
      providers.provider(CatalogProtocol.valueOf(type.name())).checkProperties(properties);
    } catch (CatalogAccessException e) {
      if (e.code() != CatalogAccessException.Code.INVALID_CONFIGURATION) {
        throw e; // no provider: not a setting to reject; the caller's wiring is wrong
      }
      throw new IcegateException(ErrorCode.CONNECTION_SETTING_REJECTED, ResourceKind.INTEGRATION,
          "property value (" + e.getMessage() + ")");
    }
  }
}
