package io.icegate.core.error;

import io.icegate.core.store.KvStoreException;

/**
 * The catalogue of stable error codes: every code a service may throw, with the HTTP status the
 * HTTP layers answer and the message template ({@link String#format} placeholders). Codes are part
 * of the public API (admin problem+json {@code code}, CLI, tests): never rename or reuse one.
 *
 * <p>Templates are filled only with identifiers, names and counts, never with secrets or request
 * bodies.
 */
public enum ErrorCode {
  /** A request member is missing or malformed. */
  INVALID_ARGUMENT(400, "invalid argument: %s"),
  /** A page token was not issued for this listing, was edited, or its listing's filter changed. */
  INVALID_PAGE_TOKEN(400, "the page token is not valid for this listing"),
  /** The referenced resource does not exist (or no longer does). Args: kind, reference. */
  NOT_FOUND(404, "%s %s does not exist"),
  /** The display name is taken in its scope. Args: kind, name. */
  ALREADY_EXISTS(409, "%s %s already exists"),
  /**
   * A compare-and-set precondition (expected generation, {@code If-Match}) did not hold. Args: kind,
   * id, expected, actual.
   */
  GENERATION_MISMATCH(412, "%s %s is at generation %d, not the expected %s"),
  /** A deletion fence is installed on the resource or one of its ancestors. Args: kind, id. */
  FENCED(409, "%s %s is being deleted"),
  /** Other resources still depend on the resource (dependency counters). Args: kind, id, count. */
  DEPENDENCY_EXISTS(409, "%s %s still has %d dependent resource(s)"),
  /** A namespace still holds child namespaces, tables or views. Args: namespace. */
  NAMESPACE_NOT_EMPTY(409, "namespace %s is not empty"),
  /** The same idempotency key was used with a different request. Args: key. */
  IDEMPOTENCY_KEY_REUSED(422, "idempotency key %s was used for a different request"),
  /** The first request with this idempotency key is still running. Args: key. */
  IDEMPOTENCY_IN_PROGRESS(409, "a request with idempotency key %s is still in progress"),
  /** Retries were exhausted by conflicting concurrent writers; retrying later may succeed. */
  STORE_CONTENTION(503, "the store is too contended to complete the request; retry"),
  /**
   * A commit's outcome could not be determined and the operation cannot resolve it; the caller
   * should re-read before retrying. Args: what.
   */
  COMMIT_STATE_UNKNOWN(503, "the outcome of %s is unknown; read the resource before retrying"),
  /** A request would exceed the store's size limits (a value over 100 kB, a 10 MB transaction). */
  REQUEST_TOO_LARGE(413, "the request exceeds the store's size limits"),
  /** The store failed; nothing is known to be written. */
  STORE_UNAVAILABLE(503, "the store is unavailable"),
  /**
   * The request body is not the JSON the route takes: not JSON, an unknown member, a wrong type,
   * an unknown enum value. Args: what (names the member, never echoes a value).
   */
  MALFORMED_REQUEST(400, "malformed request: %s"),
  /** An immutable member was given a new value. Args: member. */
  IMMUTABLE_MEMBER(400, "%s cannot be changed"),
  /**
   * A connection setting crosses the connection boundary (seed 001): a non-http(s) URI, user-info,
   * a fragment, a secret-bearing query parameter or property, a credential-provider handle. Args:
   * the offending key or URI part (never its value).
   */
  CONNECTION_SETTING_REJECTED(400, "connection setting %s is not allowed"),
  /** An endpoint resolves to an address the outbound address policy refuses. Args: host. */
  OUTBOUND_ADDRESS_REJECTED(400, "the address of host %s is not allowed by the outbound address policy"),
  /** The authentication variant is not accepted by the integration type. Args: type, variant. */
  AUTHENTICATION_NOT_SUPPORTED(400, "integrations of type %s do not accept authentication %s"),
  /** A required write-only secret member is missing, or one the variant does not take was given. */
  CREDENTIALS_INVALID(400, "credentials: %s"),
  /** The request needs an {@code If-Match} precondition (PATCH, PUT). */
  PRECONDITION_REQUIRED(428, "this request requires an If-Match header"),
  /** An {@code If-Match} value does not name the resource's current version. Args: kind, id. */
  PRECONDITION_FAILED(412, "If-Match does not match the current version of %s %s"),
  /** No or an unknown bearer token. */
  UNAUTHENTICATED(401, "a valid bearer token is required"),
  /** Issue 31: the bearer token's expiry has passed. Args: the expiry instant. */
  TOKEN_EXPIRED(401, "the bearer token expired at %s"),
  /**
   * Issue 31: revoking the token would leave no server-admin token. Args: token id.
   */
  LAST_SERVER_ADMIN_TOKEN(409,
      "token %s is the last server-admin token; issue another server-admin token first"),
  /** The token's role does not allow the operation. Args: role, operation. */
  PERMISSION_DENIED(403, "a %s token may not %s"),
  /** No route serves the path. */
  ROUTE_NOT_FOUND(404, "no such route: %s"),
  /** The route does not take the method. Args: method. */
  METHOD_NOT_ALLOWED(405, "method %s is not allowed on this route"),
  /** The request body is larger than the server accepts. Args: limit in bytes. */
  BODY_TOO_LARGE(413, "the request body is larger than %d bytes"),
  /**
   * The Integration's stored configuration cannot be used to reach its catalog (an unsupported
   * authentication such as aws-assume-role, missing credentials, an endpoint or property the
   * provider refuses, an address the outbound policy denies). Args: the reason (names, no values).
   */
  INTEGRATION_NOT_USABLE(422, "the integration cannot be used: %s"),
  /**
   * The upstream catalog answered with a failure (authentication refused, permission denied, a
   * protocol error such as broken pagination). Args: the reason (names, no values).
   */
  UPSTREAM_FAILED(502, "the upstream catalog failed: %s"),
  /**
   * The upstream catalog or the Integration's credentials are momentarily unavailable (connection
   * failure, a credential generation superseded by a concurrent rotation); a retry may succeed.
   * Args: the reason.
   */
  UPSTREAM_UNAVAILABLE(503, "the upstream catalog is unavailable; retry: %s"),
  /**
   * Seed 000: a claimed Namespace cannot be dropped or moved while an Overlay uses it. Args:
   * namespace, overlay id.
   */
  NAMESPACE_CLAIMED(409, "namespace %s is claimed by overlay %s"),
  /**
   * Seed 000: a materialized Table or View is read-only while its Overlay manages it. Args: kind,
   * name, overlay id.
   */
  MANAGED_BY_OVERLAY(403, "%s %s is managed by overlay %s and cannot be changed directly"),
  /**
   * Reconciliation preflight found destination conflicts; nothing was published. Args: count (the
   * problem body lists each conflict).
   */
  RECONCILE_CONFLICT(409, "reconciliation found %d conflict(s); nothing was published"),
  /** A reconcile of the Overlay is already running. Args: overlay id. */
  RECONCILE_IN_PROGRESS(409, "overlay %s is already being reconciled"),
  /**
   * A newer run, a configuration or credential change, or a deletion fence superseded this
   * reconcile before it published; nothing more was published. Args: what changed.
   */
  RECONCILE_SUPERSEDED(409, "the reconcile was superseded: %s"),
  /**
   * Issue 10: a Table cannot be validated now (not managed, not captured yet, or the validation
   * could not publish: the upstream failed, or another capture or validation moved on meanwhile).
   * Args: table id, why.
   */
  VALIDATION_NOT_PUBLISHED(409, "table %s was not validated: %s"),
  /**
   * Issue 8: an asynchronous reconcile stopped without finishing because the process running it
   * died (its operation record showed RUNNING and was no longer renewed by that process's
   * heartbeat). Reported inside the FAILED operation, never thrown at a request. 500 rather than
   * 503: like {@link #INTERNAL}, the server failed the work it accepted, and repeating the same
   * request (polling the operation) will not change the answer; what helps is a new reconcile,
   * which from this answer on takes over the Overlay from the dead run (overlay-engine's
   * ReconcileOperations). Args: operation id, overlay id.
   */
  RECONCILE_INTERRUPTED(500, "the process running reconcile operation %s stopped before it"
      + " finished; overlay %s can be reconciled again now"),
  /**
   * Issue 21: a cycle of path handovers among the Overlay's own relations (a permutation of
   * paths) must be published in one transaction and is larger than one transaction may be;
   * nothing was published. Args: relations, estimated bytes, relation limit, byte limit.
   */
  RECONCILE_HANDOVER_TOO_LARGE(422, "a cycle of %d path handovers (about %d bytes) exceeds one"
      + " transaction's limit of %d relations or %d bytes; nothing was published"),
  /**
   * Issue 21, a held object: the listed upstream object cannot be represented in icegate (a name
   * over a limit, a control character in a segment, a type with no Iceberg counterpart, no storage
   * location). A limit of ours, not an upstream failure. Args: the object, why.
   */
  NOT_REPRESENTABLE(422, "upstream %s cannot be represented in icegate: %s"),
  /**
   * Issue 21, a held object: the upstream served metadata that is not valid (an Iceberg table or
   * view icegate cannot build), or two objects at one path. Args: the object, why.
   */
  UPSTREAM_OBJECT_INVALID(502, "upstream %s is not valid: %s"),
  /**
   * Issue 21, a held object: the storage credentials the upstream vends for it could not be
   * obtained or used this run (vending refused, none vended, no expiry, the store refused them).
   * Args: the object, why.
   */
  STORAGE_CREDENTIALS_FAILED(503, "storage credentials for upstream %s failed: %s"),
  /**
   * Issue 21, a held object: its destination path is held by this Overlay's relation of another
   * upstream object that is itself held this run, so it cannot be placed. Args: the object, the
   * holder's path.
   */
  PATH_HELD_BY_HELD_OBJECT(409, "upstream %s cannot take its path: it is held by %s, whose"
      + " upstream object is held this run"),
  /**
   * Issue 21: the run would retire every relation the Overlay holds, or every relation under one
   * of its include paths (an Integration pointed at the wrong upstream catalog looks exactly like
   * that), and the request did not confirm it ({@code confirmRetirement=true}); nothing was
   * published. Args: relations to retire, relations held (the details name each scope).
   */
  MASS_RETIREMENT_UNCONFIRMED(409, "the reconcile would retire %d of the overlay's %d"
      + " relation(s), all of them or all under an include path; nothing was published (confirm"
      + " with confirmRetirement=true if the upstream really dropped them)"),
  /**
   * Issue 28: the Integration is paused, which stops all new upstream work: no scheduled round
   * starts and a reconcile or capture on request is refused. Args: integration id.
   */
  INTEGRATION_PAUSED(409, "integration %s is paused; resume it (paused: false) to reconcile"),
  /**
   * A stored credential does not decrypt with the master key this server was started with (the
   * server was restarted with another {@code ICEGATE_MASTER_KEY} / key file, or the credential was
   * tampered with). An operator error, not a client one: the server log names the key's source.
   */
  MASTER_KEY_MISMATCH(500, "a stored credential cannot be decrypted with the master key this"
      + " server was started with; start it with the key the credentials were written with"),
  /**
   * A Catalog's warehouse is equal to, contains or lies inside the warehouse of a Catalog of
   * another account (each account's storage stays its own: a Catalog may register and purge the
   * files of any table inside its warehouse). The message names only the requested warehouse,
   * never the other account or its Catalog. Args: the requested warehouse.
   */
  WAREHOUSE_OVERLAP(409, "warehouse %s overlaps a warehouse of another account"),
  /** An unexpected server failure; details are in the server log. */
  INTERNAL(500, "internal error");

  private final int httpStatus;
  private final String template;

  ErrorCode(int httpStatus, String template) {
    this.httpStatus = httpStatus;
    this.template = template;
  }

  /** The HTTP status the HTTP layers answer for this code. */
  public int httpStatus() {
    return httpStatus;
  }

  /** The message template, with {@link String#format} placeholders. */
  public String template() {
    return template;
  }

  /**
   * The code the HTTP layers answer for a storage failure that reached them: contention and "too
   * old" after exhausted retries, an unresolved unknown commit, a size limit, any other failure.
   */
  public static ErrorCode forStoreFailure(KvStoreException.FailureKind kind) {
    return switch (kind) {
      case CONFLICT, TOO_OLD -> STORE_CONTENTION;
      case COMMIT_UNKNOWN_RESULT -> COMMIT_STATE_UNKNOWN;
      case LIMIT_EXCEEDED -> REQUEST_TOO_LARGE;
      case FAILURE -> STORE_UNAVAILABLE;
    };
  }

  /** The template filled with {@code args}. */
  public String format(Object... args) {
    return args.length == 0 ? template : String.format(template, args);
  }
}
