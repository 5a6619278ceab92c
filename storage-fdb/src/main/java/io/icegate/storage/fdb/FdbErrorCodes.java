package io.icegate.storage.fdb;

import com.apple.foundationdb.FDBException;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.KvLimitExceededException;
import io.icegate.core.store.KvLimitExceededException.Limit;
import io.icegate.core.store.KvStoreException;
import io.icegate.core.store.KvStoreException.FailureKind;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.TransactionConflictException;
import io.icegate.core.store.TransactionTooOldException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The FoundationDB error codes this driver tells apart, and how each maps onto core's {@link
 * FailureKind}.
 *
 * <p>Codes and names are from FoundationDB's {@code flow/include/flow/error_definitions.h}; the
 * grouping follows {@code fdb_error_predicate} in {@code bindings/c/fdb_c.cpp}: its "maybe
 * committed" codes become {@link FailureKind#COMMIT_UNKNOWN_RESULT}, its "retryable, not committed"
 * codes {@link FailureKind#CONFLICT} (except 1007, which core calls {@link FailureKind#TOO_OLD}).
 * The table exists because {@link FDBException#isRetryable()} and {@link
 * FDBException#isMaybeCommitted()} call into {@code libfdb_c}: a table can be read, tested and
 * reviewed without the native client.
 *
 * <p>Where the error came from matters for one group: a timeout or cancellation raised by {@code
 * commit()} may leave the commit request in flight, so it is reported as a commit with unknown
 * result (FoundationDB developer guide, "Transactions with unknown results"); raised by a read it is
 * a plain failure. An error code missing from this table is a {@link FailureKind#FAILURE}, except
 * when {@code commit()} raised it: then nothing proves the transaction did not commit, and it is
 * reported as unknown result too.
 */
public enum FdbErrorCodes {
  // Retryable, nothing was committed: core retries these like a conflict.
  FUTURE_VERSION(1009, "future_version", FailureKind.CONFLICT),
  NOT_COMMITTED(1020, "not_committed", FailureKind.CONFLICT),
  PROCESS_BEHIND(1037, "process_behind", FailureKind.CONFLICT),
  DATABASE_LOCKED(1038, "database_locked", FailureKind.CONFLICT),
  COMMIT_PROXY_MEMORY_LIMIT_EXCEEDED(
      1042, "commit_proxy_memory_limit_exceeded", FailureKind.CONFLICT),
  BATCH_TRANSACTION_THROTTLED(1051, "batch_transaction_throttled", FailureKind.CONFLICT),
  GRV_PROXY_MEMORY_LIMIT_EXCEEDED(1078, "grv_proxy_memory_limit_exceeded", FailureKind.CONFLICT),
  TAG_THROTTLED(1213, "tag_throttled", FailureKind.CONFLICT),
  PROXY_TAG_THROTTLED(1223, "proxy_tag_throttled", FailureKind.CONFLICT),
  TRANSACTION_THROTTLED_HOT_SHARD(1235, "transaction_throttled_hot_shard", FailureKind.CONFLICT),

  TRANSACTION_TOO_OLD(1007, "transaction_too_old", FailureKind.TOO_OLD),

  // The commit may or may not have been applied.
  COMMIT_UNKNOWN_RESULT(1021, "commit_unknown_result", FailureKind.COMMIT_UNKNOWN_RESULT),
  /** Only with automatic idempotency, which icegate does not enable; still an unknown outcome. */
  COMMIT_UNKNOWN_RESULT_FATAL(
      1022, "commit_unknown_result_fatal", FailureKind.COMMIT_UNKNOWN_RESULT),
  CLUSTER_VERSION_CHANGED(1039, "cluster_version_changed", FailureKind.COMMIT_UNKNOWN_RESULT),

  TRANSACTION_TOO_LARGE(2101, "transaction_too_large", Limit.TRANSACTION_SIZE),
  KEY_TOO_LARGE(2102, "key_too_large", Limit.KEY_SIZE),
  VALUE_TOO_LARGE(2103, "value_too_large", Limit.VALUE_SIZE),

  // Failures that may leave a commit request in flight when commit() raises them.
  TIMED_OUT(1004, "timed_out", FailureKind.FAILURE, FailureKind.COMMIT_UNKNOWN_RESULT),
  TRANSACTION_CANCELLED(
      1025, "transaction_cancelled", FailureKind.FAILURE, FailureKind.COMMIT_UNKNOWN_RESULT),
  TRANSACTION_TIMED_OUT(
      1031, "transaction_timed_out", FailureKind.FAILURE, FailureKind.COMMIT_UNKNOWN_RESULT),

  // Failures the client raises before anything reaches the cluster: never committed.
  NO_CLUSTER_FILE_FOUND(1515, "no_cluster_file_found", FailureKind.FAILURE),
  CLIENT_INVALID_OPERATION(2000, "client_invalid_operation", FailureKind.FAILURE),
  KEY_OUTSIDE_LEGAL_RANGE(2004, "key_outside_legal_range", FailureKind.FAILURE),
  INVERTED_RANGE(2005, "inverted_range", FailureKind.FAILURE),
  USED_DURING_COMMIT(2017, "used_during_commit", FailureKind.FAILURE),
  TRANSACTION_READ_ONLY(2023, "transaction_read_only", FailureKind.FAILURE),
  CONNECTION_STRING_INVALID(2104, "connection_string_invalid", FailureKind.FAILURE),
  /** The installed {@code libfdb_c} is older than API version 730. */
  API_VERSION_NOT_SUPPORTED(2203, "api_version_not_supported", FailureKind.FAILURE);

  /** Where in a transaction an error was raised; decides the unknown-result cases. */
  public enum Phase {
    /** Opening, beginning, reading or buffering writes: nothing has been sent for commit. */
    BEFORE_COMMIT,
    /** {@code commit()}: the commit request may have reached the cluster. */
    COMMIT
  }

  private static final Map<Integer, FdbErrorCodes> BY_CODE =
      Stream.of(values()).collect(Collectors.toUnmodifiableMap(e -> e.code, Function.identity()));

  private final int code;
  private final String errorName;
  private final FailureKind kind;
  private final FailureKind kindAtCommit;
  private final Limit limit;

  FdbErrorCodes(int code, String errorName, FailureKind kind) {
    this(code, errorName, kind, kind, null);
  }

  FdbErrorCodes(int code, String errorName, FailureKind kind, FailureKind kindAtCommit) {
    this(code, errorName, kind, kindAtCommit, null);
  }

  FdbErrorCodes(int code, String errorName, Limit limit) {
    this(code, errorName, FailureKind.LIMIT_EXCEEDED, FailureKind.LIMIT_EXCEEDED, limit);
  }

  FdbErrorCodes(
      int code, String errorName, FailureKind kind, FailureKind kindAtCommit, Limit limit) {
    this.code = code;
    this.errorName = errorName;
    this.kind = kind;
    this.kindAtCommit = kindAtCommit;
    this.limit = limit;
  }

  /** FoundationDB's numeric error code, e.g. 1020. */
  public int code() {
    return code;
  }

  /** FoundationDB's name for the code, e.g. {@code not_committed}. */
  public String errorName() {
    return errorName;
  }

  /** The outcome when raised in {@code phase}. */
  public FailureKind kind(Phase phase) {
    return phase == Phase.COMMIT ? kindAtCommit : kind;
  }

  /** For {@link FailureKind#LIMIT_EXCEEDED} codes, which limit; empty otherwise. */
  public Optional<Limit> limit() {
    return Optional.ofNullable(limit);
  }

  /** The table entry for {@code code}, empty when the code is not listed. */
  public static Optional<FdbErrorCodes> of(int code) {
    return Optional.ofNullable(BY_CODE.get(code));
  }

  /**
   * The outcome of error {@code code} raised in {@code phase}: the table's kind, or for an unlisted
   * code {@link FailureKind#FAILURE} before commit and {@link FailureKind#COMMIT_UNKNOWN_RESULT}
   * from commit.
   */
  public static FailureKind kindOf(int code, Phase phase) {
    FdbErrorCodes known = BY_CODE.get(code);
    if (known != null) {
      return known.kind(phase);
    }
    return phase == Phase.COMMIT ? FailureKind.COMMIT_UNKNOWN_RESULT : FailureKind.FAILURE;
  }

  /**
   * Translates what a fdb-java call threw into core's exception for it. Unwraps {@link
   * CompletionException} and {@link ExecutionException} (what {@code join()} and {@code get()} wrap
   * a failed future's {@link FDBException} in). Anything that is not an {@link FDBException} becomes
   * a {@link KvStoreFailureException}; an existing {@link KvStoreException} is returned as it is.
   *
   * @param thrown what the call threw
   * @param phase where in the transaction it was raised
   * @return the exception to throw; its message names the code and its FoundationDB name, and the
   *     original is its cause
   */
  public static KvStoreException toKvStoreException(Throwable thrown, Phase phase) {
    Throwable cause = unwrap(thrown);
    if (cause instanceof KvStoreException already) {
      return already;
    }
    if (!(cause instanceof FDBException fdb)) {
      return new KvStoreFailureException(
          "FoundationDB client call failed" + (phase == Phase.COMMIT ? " during commit" : "")
              + ": " + cause,
          cause);
    }
    int code = fdb.getCode();
    FdbErrorCodes known = BY_CODE.get(code);
    String message = describe(fdb, known, phase);
    return switch (kindOf(code, phase)) {
      case CONFLICT -> new TransactionConflictException(message, fdb);
      case TOO_OLD -> new TransactionTooOldException(message, fdb);
      case COMMIT_UNKNOWN_RESULT -> new CommitUnknownResultException(message, fdb);
      case LIMIT_EXCEEDED -> new KvLimitExceededException(known.limit, message, fdb);
      case FAILURE -> new KvStoreFailureException(message, fdb);
    };
  }

  /** The innermost cause under future wrappers; {@code thrown} itself when it is not a wrapper. */
  static Throwable unwrap(Throwable thrown) {
    Throwable t = thrown;
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  private static String describe(FDBException fdb, FdbErrorCodes known, Phase phase) {
    String name = known != null ? known.errorName : "unlisted";
    StringBuilder message =
        new StringBuilder("FoundationDB error ").append(fdb.getCode()).append(' ').append(name);
    if (fdb.getMessage() != null && !fdb.getMessage().isBlank()) {
      message.append(": ").append(fdb.getMessage());
    }
    if (phase == Phase.COMMIT && (known == null || known.kind != known.kindAtCommit)) {
      message.append(" (raised by commit: the transaction may have committed)");
    }
    return message.toString();
  }
}
