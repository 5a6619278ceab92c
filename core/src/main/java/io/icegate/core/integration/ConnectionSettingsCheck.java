package io.icegate.core.integration;

import io.icegate.admin.model.IntegrationType;
import io.icegate.core.error.IcegateException;
import java.util.Map;

/**
 * The provider's own reading of an Integration's connection property values (a boolean that must
 * be {@code true} or {@code false}, a positive number), applied when the Integration is created or
 * its properties change, so a value the provider would refuse is refused then instead of at its
 * first validation. The rules live once, in each catalog-access provider; core must not depend on
 * catalog-access, so the gateway supplies the implementation, like {@link UpstreamAddressCheck}.
 */
@FunctionalInterface
public interface ConnectionSettingsCheck {

  /** Checks nothing: for wiring that has no providers (benchmarks, core's own tests). */
  ConnectionSettingsCheck NONE = (type, properties) -> {};

  /**
   * @throws IcegateException CONNECTION_SETTING_REJECTED naming the property and the values it
   *     takes, never the value given
   */
  void check(IntegrationType type, Map<String, String> properties);
}
