package io.icegate.overlay.reconcile;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A listed upstream object that publishes nothing this run (issue 21 "Held objects", a refinement
 * of seed 000's failure rule within its definition of "stale"): it cannot be represented, or could
 * not be loaded this run. It is still in the complete inventory, so an earlier materialization of
 * it is not stale and stays exactly as it was.
 *
 * @param kind {@code table}, {@code view} or {@code namespace}
 * @param namespace its upstream namespace (the namespace itself for kind {@code namespace})
 * @param name its name; {@code null} for a namespace
 * @param code who is to blame ({@link #classify}): {@link ErrorCode#NOT_REPRESENTABLE} (a limit of
 *     ours), {@link ErrorCode#UPSTREAM_OBJECT_INVALID}, {@link
 *     ErrorCode#STORAGE_CREDENTIALS_FAILED}, {@link ErrorCode#PATH_HELD_BY_HELD_OBJECT}, or the
 *     upstream failure codes ({@link ErrorCode#UPSTREAM_FAILED}, {@link
 *     ErrorCode#UPSTREAM_UNAVAILABLE}, {@link ErrorCode#NOT_FOUND}, {@link
 *     ErrorCode#INTEGRATION_NOT_USABLE})
 * @param message the code's message, naming the object and the reason (no secrets)
 * @param identityKey its {@link DesiredRelation#identityKey()} when the load told it, else {@code
 *     null} (its earlier materialization is then found by path)
 */
public record HeldObject(String kind, List<String> namespace, String name, ErrorCode code,
    String message, String identityKey) {

  public HeldObject {
    Objects.requireNonNull(kind, "kind");
    namespace = List.copyOf(namespace);
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
  }

  /** Namespace segments then the name: where it lives upstream and would live in the Catalog. */
  List<String> path() {
    List<String> out = new ArrayList<>(namespace);
    if (name != null) {
      out.add(name);
    }
    return List.copyOf(out);
  }

  /** {@code kind ns1.ns2.name}, for messages. */
  String describe() {
    return kind + " " + String.join(".", path());
  }

  /** The report's form of it. */
  ReconcileReport.Held toReport() {
    return new ReconcileReport.Held(kind, path(), code.name(), message);
  }

  /** Held for {@code code} with the code's message about this object and {@code why}. */
  static HeldObject of(String kind, List<String> namespace, String name, ErrorCode code,
      String why, String identityKey) {
    String object = kind + " " + String.join(".", namespace) + (name == null ? "" : "." + name);
    return new HeldObject(kind, namespace, name, code, code.format(object, why), identityKey);
  }

  /**
   * Held because loading it failed with {@code failure}, blamed on the right party: storage
   * credentials that could not be vended or used are {@link ErrorCode#STORAGE_CREDENTIALS_FAILED};
   * other failures keep the code the run would have failed with ({@code UpstreamFailures}), the
   * SPI's message (no secrets) as the reason.
   */
  static HeldObject classify(String kind, List<String> namespace, String name,
      CatalogAccessException failure) {
    ErrorCode code = switch (failure.code()) {
      case CREDENTIAL_VENDING_FAILED, CREDENTIAL_SCOPE_INVALID, CREDENTIAL_EXPIRED,
          STORAGE_ACCESS_FAILED -> ErrorCode.STORAGE_CREDENTIALS_FAILED;
      case NOT_FOUND -> ErrorCode.NOT_FOUND;
      case INVALID_CONFIGURATION, UNSUPPORTED, PROVIDER_UNAVAILABLE, ADDRESS_DENIED ->
          ErrorCode.INTEGRATION_NOT_USABLE;
      case CONNECTION_FAILED, CREDENTIAL_UNAVAILABLE -> ErrorCode.UPSTREAM_UNAVAILABLE;
      default -> ErrorCode.UPSTREAM_FAILED;
    };
    if (code == ErrorCode.STORAGE_CREDENTIALS_FAILED) {
      return of(kind, namespace, name, code, failure.getMessage(), null);
    }
    String object = kind + " " + String.join(".", namespace) + "." + name;
    String message = code == ErrorCode.NOT_FOUND
        ? "upstream " + object + " was listed but could not be loaded: " + failure.getMessage()
        : object + ": " + code.format(failure.getMessage());
    return new HeldObject(kind, namespace, name, code, message, null);
  }

  /** Held for the catalogue failure {@code e} raised while building its definition. */
  static HeldObject of(String kind, List<String> namespace, String name, IcegateException e,
      String identityKey) {
    return new HeldObject(kind, namespace, name, e.code(), e.getMessage(), identityKey);
  }
}
