package io.icegate.overlay.discovery;

import io.icegate.access.model.NamespacePath;
import java.util.Comparator;
import java.util.List;

/**
 * The deterministic order of namespace paths: segment by segment, by {@link String#compareTo}
 * (UTF-16 code units, case-sensitive, so {@code Marketing} sorts before {@code sales}); a path
 * sorts before its children.
 */
public enum NamespaceOrder implements Comparator<NamespacePath> {
  INSTANCE;

  @Override
  public int compare(NamespacePath a, NamespacePath b) {
    List<String> x = a.segments();
    List<String> y = b.segments();
    for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
      int c = x.get(i).compareTo(y.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(x.size(), y.size());
  }
}
