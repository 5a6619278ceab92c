package io.icegate.overlay.validation;

/**
 * The checks of Integration validation, in the order they run (seed 000 "Vended storage
 * credentials": the catalog boundary and the storage boundary are tested independently, and each
 * failure is its own entry).
 */
public enum ValidationCheck {
  /** The endpoint is reachable (and the stored configuration opens a client). */
  CONNECTION("connection"),
  /** The catalog accepts the Integration's authentication (a real namespace listing). */
  AUTHENTICATION("authentication"),
  /** Namespaces can be listed, and a table to vend for is found (or the one named exists). */
  DISCOVERY("discovery"),
  /** The catalog vends storage credentials for that table. */
  CREDENTIAL_VENDING("credential-vending"),
  /** The vended credentials carry an expiry in the future. */
  CREDENTIAL_EXPIRY("credential-expiry"),
  /** The vended credentials' prefix covers the table's storage location. */
  CREDENTIAL_SCOPE("credential-scope"),
  /** Exactly the vended credentials read the table's metadata from storage. */
  STORAGE_ACCESS("storage-access");

  private final String wireName;

  ValidationCheck(String wireName) {
    this.wireName = wireName;
  }

  /** The name in the admin API's validation result ({@code check} member). */
  public String wireName() {
    return wireName;
  }
}
