package io.icegate.cli.command;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The key of a {@code --property KEY=VALUE}: picocli splits at the first {@code =} and would take
 * {@code '=v'} as a property named "", which the server refuses too. Refused here as a usage error
 * (exit 2) before any request.
 */
final class PropertyKey implements ITypeConverter<String> {
  @Override
  public String convert(String key) {
    if (key.isBlank()) {
      throw new TypeConversionException("a property needs a name before '=' (KEY=VALUE)");
    }
    return key;
  }
}
