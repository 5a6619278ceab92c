package io.icegate.gateway.catalog;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.TransactionConflictException;
import java.util.function.Supplier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;

/**
 * Translates the repositories' coded errors into the Iceberg exceptions that {@code
 * CatalogHandlers}, {@code BaseMetastoreCatalog} and the REST error mapping understand (e.g. {@code
 * tableExists} relies on {@link NoSuchTableException}).
 */
public final class RepositoryErrors {
  private RepositoryErrors() {}

  /** Runs {@code call}, translating repository and store failures. */
  static <T> T translate(Supplier<T> call) {
    try {
      return call.get();
    } catch (IcegateException e) {
      throw toIceberg(e);
    } catch (CommitUnknownResultException e) {
      throw new CommitStateUnknownException(e);
    } catch (TransactionConflictException e) {
      // retries exhausted: the store is contended (or another process holds SQLite's lock), not
      // a failed commit: a 409 would tell iceberg-core "already exists" on a namespace create
      throw toIceberg(new IcegateException(ErrorCode.STORE_CONTENTION, null,
          ErrorCode.STORE_CONTENTION.template(), e));
    }
  }

  /** The Iceberg exception for a repository error code (and its subject kind). */
  public static RuntimeException toIceberg(IcegateException e) {
    ResourceKind subject = e.subject().orElse(null);
    String message = e.getMessage();
    return switch (e.code()) {
      case NOT_FOUND -> notFound(subject, message);
      case ALREADY_EXISTS -> new AlreadyExistsException("%s", message);
      case NAMESPACE_NOT_EMPTY -> new NamespaceNotEmptyException("%s", message);
      case GENERATION_MISMATCH, FENCED, DEPENDENCY_EXISTS, IDEMPOTENCY_IN_PROGRESS,
          NAMESPACE_CLAIMED, RECONCILE_CONFLICT, RECONCILE_IN_PROGRESS, RECONCILE_SUPERSEDED,
          VALIDATION_NOT_PUBLISHED, MASS_RETIREMENT_UNCONFIRMED, PATH_HELD_BY_HELD_OBJECT,
          LAST_SERVER_ADMIN_TOKEN, INTEGRATION_PAUSED, WAREHOUSE_OVERLAP ->
          // the code stays reachable as the cause (the servlet's Retry-After hint reads it)
          new CommitFailedException(e, "%s", message);
      case INVALID_ARGUMENT, INVALID_PAGE_TOKEN -> new BadRequestException("%s", message);
      case IDEMPOTENCY_KEY_REUSED ->
          new org.apache.iceberg.exceptions.UnprocessableEntityException("%s", message);
      case COMMIT_STATE_UNKNOWN -> new CommitStateUnknownException(e);
      case REQUEST_TOO_LARGE -> new RequestTooLargeException(message);
      case STORE_CONTENTION, STORE_UNAVAILABLE ->
          new ServiceUnavailableException(e, "%s", message);
      // Admin-surface codes; should one reach the Iceberg surface, map it by its status.
      case MALFORMED_REQUEST, IMMUTABLE_MEMBER, CONNECTION_SETTING_REJECTED,
          OUTBOUND_ADDRESS_REJECTED, AUTHENTICATION_NOT_SUPPORTED, CREDENTIALS_INVALID ->
          new BadRequestException("%s", message);
      case BODY_TOO_LARGE -> new RequestTooLargeException(message);
      case PRECONDITION_REQUIRED, PRECONDITION_FAILED -> new CommitFailedException("%s", message);
      case UNAUTHENTICATED, TOKEN_EXPIRED ->
          new org.apache.iceberg.exceptions.NotAuthorizedException("%s", message);
      case PERMISSION_DENIED, MANAGED_BY_OVERLAY -> new org.apache.iceberg.exceptions.ForbiddenException("%s", message);
      case ROUTE_NOT_FOUND -> new NotFoundException("%s", message);
      case METHOD_NOT_ALLOWED, INTERNAL, UPSTREAM_FAILED, RECONCILE_INTERRUPTED, MASTER_KEY_MISMATCH ->
          new org.apache.iceberg.exceptions.ServiceFailureException("%s", message);
      case INTEGRATION_NOT_USABLE, RECONCILE_HANDOVER_TOO_LARGE, NOT_REPRESENTABLE ->
          new org.apache.iceberg.exceptions.UnprocessableEntityException("%s", message);
      case UPSTREAM_OBJECT_INVALID ->
          new org.apache.iceberg.exceptions.ServiceFailureException("%s", message);
      case UPSTREAM_UNAVAILABLE, STORAGE_CREDENTIALS_FAILED ->
          new ServiceUnavailableException("%s", message);
    };
  }

  private static RuntimeException notFound(ResourceKind subject, String message) {
    if (subject == null) {
      return new NotFoundException("%s", message);
    }
    return switch (subject) {
      case NAMESPACE -> new NoSuchNamespaceException("%s", message);
      case TABLE -> new NoSuchTableException("%s", message);
      case VIEW -> new NoSuchViewException("%s", message);
      default -> new NotFoundException("%s", message);
    };
  }
}
