package io.icegate.access.model;

/** The relation kinds discovery reports. */
public enum CatalogObjectKind {
  TABLE,
  VIEW
}
