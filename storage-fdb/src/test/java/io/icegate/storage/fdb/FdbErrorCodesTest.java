package io.icegate.storage.fdb;

import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.FDBException;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.KvLimitExceededException;
import io.icegate.core.store.KvLimitExceededException.Limit;
import io.icegate.core.store.KvStoreException;
import io.icegate.core.store.KvStoreException.FailureKind;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.TransactionConflictException;
import io.icegate.core.store.TransactionTooOldException;
import io.icegate.storage.fdb.FdbErrorCodes.Phase;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The error table, checked against an independent copy of the expected mapping. Codes and names are
 * FoundationDB's (error_definitions.h); the expected kinds follow fdb_c.cpp's error predicates.
 * {@code new FDBException(message, code)} is plain Java (it only stores the code), so these tests
 * build the exact exception the native client would deliver without needing libfdb_c.
 */
class FdbErrorCodesTest {

  @ParameterizedTest(name = "{0} {1}: {2} before commit, {3} from commit")
  @CsvSource({
    "1009, future_version, CONFLICT, CONFLICT",
    "1020, not_committed, CONFLICT, CONFLICT",
    "1037, process_behind, CONFLICT, CONFLICT",
    "1038, database_locked, CONFLICT, CONFLICT",
    "1042, commit_proxy_memory_limit_exceeded, CONFLICT, CONFLICT",
    "1051, batch_transaction_throttled, CONFLICT, CONFLICT",
    "1078, grv_proxy_memory_limit_exceeded, CONFLICT, CONFLICT",
    "1213, tag_throttled, CONFLICT, CONFLICT",
    "1223, proxy_tag_throttled, CONFLICT, CONFLICT",
    "1235, transaction_throttled_hot_shard, CONFLICT, CONFLICT",
    "1007, transaction_too_old, TOO_OLD, TOO_OLD",
    "1021, commit_unknown_result, COMMIT_UNKNOWN_RESULT, COMMIT_UNKNOWN_RESULT",
    "1022, commit_unknown_result_fatal, COMMIT_UNKNOWN_RESULT, COMMIT_UNKNOWN_RESULT",
    "1039, cluster_version_changed, COMMIT_UNKNOWN_RESULT, COMMIT_UNKNOWN_RESULT",
    "2101, transaction_too_large, LIMIT_EXCEEDED, LIMIT_EXCEEDED",
    "2102, key_too_large, LIMIT_EXCEEDED, LIMIT_EXCEEDED",
    "2103, value_too_large, LIMIT_EXCEEDED, LIMIT_EXCEEDED",
    "1004, timed_out, FAILURE, COMMIT_UNKNOWN_RESULT",
    "1025, transaction_cancelled, FAILURE, COMMIT_UNKNOWN_RESULT",
    "1031, transaction_timed_out, FAILURE, COMMIT_UNKNOWN_RESULT",
    "1515, no_cluster_file_found, FAILURE, FAILURE",
    "2000, client_invalid_operation, FAILURE, FAILURE",
    "2004, key_outside_legal_range, FAILURE, FAILURE",
    "2005, inverted_range, FAILURE, FAILURE",
    "2017, used_during_commit, FAILURE, FAILURE",
    "2023, transaction_read_only, FAILURE, FAILURE",
    "2104, connection_string_invalid, FAILURE, FAILURE",
    "2203, api_version_not_supported, FAILURE, FAILURE",
  })
  void everyListedCodeHasItsNameAndKind(
      int code, String name, FailureKind beforeCommit, FailureKind fromCommit) {
    FdbErrorCodes entry = FdbErrorCodes.of(code).orElseThrow();
    assertThat(entry.errorName()).isEqualTo(name);
    assertThat(FdbErrorCodes.kindOf(code, Phase.BEFORE_COMMIT)).isEqualTo(beforeCommit);
    assertThat(FdbErrorCodes.kindOf(code, Phase.COMMIT)).isEqualTo(fromCommit);

    KvStoreException mapped =
        FdbErrorCodes.toKvStoreException(new FDBException("native text", code), Phase.COMMIT);
    assertThat(mapped.kind()).isEqualTo(fromCommit);
    assertThat(mapped.getMessage()).contains(Integer.toString(code)).contains(name);
  }

  @Test
  void theTableListsExactlyTheCodesAbove() {
    Set<Integer> expected =
        Set.of(
            1009, 1020, 1037, 1038, 1042, 1051, 1078, 1213, 1223, 1235, 1007, 1021, 1022, 1039,
            2101, 2102, 2103, 1004, 1025, 1031, 1515, 2000, 2004, 2005, 2017, 2023, 2104, 2203);
    Set<Integer> listed =
        Stream.of(FdbErrorCodes.values()).map(FdbErrorCodes::code).collect(Collectors.toSet());
    assertThat(listed).isEqualTo(expected);
  }

  @Test
  void maybeCommittedCodesAreCommitUnknownResultWhereverRaised() {
    for (int code : new int[] {1021, 1039}) {
      for (Phase phase : Phase.values()) {
        KvStoreException mapped =
            FdbErrorCodes.toKvStoreException(ScriptedFdb.error(code), phase);
        assertThat(mapped).isInstanceOf(CommitUnknownResultException.class);
        assertThat(mapped.kind().retryable()).isFalse();
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 1000, 1234, 4100, 9999, -1})
  void anUnlistedCodeIsAFailureBeforeCommitAndUnknownFromCommit(int code) {
    assertThat(FdbErrorCodes.of(code)).isEmpty();
    assertThat(FdbErrorCodes.kindOf(code, Phase.BEFORE_COMMIT)).isEqualTo(FailureKind.FAILURE);
    // commit() raised something we cannot interpret: "did not commit" would be a guess.
    assertThat(FdbErrorCodes.kindOf(code, Phase.COMMIT))
        .isEqualTo(FailureKind.COMMIT_UNKNOWN_RESULT);

    KvStoreException before =
        FdbErrorCodes.toKvStoreException(ScriptedFdb.error(code), Phase.BEFORE_COMMIT);
    assertThat(before).isInstanceOf(KvStoreFailureException.class);
    assertThat(before.getMessage()).contains("FoundationDB error " + code + " unlisted");
    KvStoreException atCommit =
        FdbErrorCodes.toKvStoreException(ScriptedFdb.error(code), Phase.COMMIT);
    assertThat(atCommit).isInstanceOf(CommitUnknownResultException.class);
    assertThat(atCommit.getMessage()).contains("may have committed");
  }

  @Test
  void eachKindBecomesItsCoreExceptionWithTheFdbExceptionAsCause() {
    FDBException conflict = ScriptedFdb.error(1020);
    assertThat(FdbErrorCodes.toKvStoreException(conflict, Phase.COMMIT))
        .isInstanceOf(TransactionConflictException.class)
        .hasCause(conflict)
        .hasMessage("FoundationDB error 1020 not_committed: scripted error 1020");
    assertThat(FdbErrorCodes.toKvStoreException(ScriptedFdb.error(1007), Phase.BEFORE_COMMIT))
        .isInstanceOf(TransactionTooOldException.class);
    assertThat(FdbErrorCodes.toKvStoreException(ScriptedFdb.error(1021), Phase.COMMIT))
        .isInstanceOf(CommitUnknownResultException.class);
    assertThat(FdbErrorCodes.toKvStoreException(ScriptedFdb.error(2005), Phase.BEFORE_COMMIT))
        .isInstanceOf(KvStoreFailureException.class);
  }

  @ParameterizedTest
  @CsvSource({"2101, TRANSACTION_SIZE", "2102, KEY_SIZE", "2103, VALUE_SIZE"})
  void limitCodesNameTheLimit(int code, Limit limit) {
    assertThat(FdbErrorCodes.of(code).orElseThrow().limit()).contains(limit);
    KvStoreException mapped =
        FdbErrorCodes.toKvStoreException(ScriptedFdb.error(code), Phase.COMMIT);
    assertThat(mapped).isInstanceOf(KvLimitExceededException.class);
    assertThat(((KvLimitExceededException) mapped).limit()).isEqualTo(limit);
  }

  @Test
  void aFailedFutureIsUnwrapped() {
    FDBException conflict = ScriptedFdb.error(1020);
    CompletableFuture<Void> failed = CompletableFuture.failedFuture(conflict);
    CompletionException fromJoin = catchCompletion(failed);
    assertThat(fromJoin.getCause()).isSameAs(conflict);

    assertThat(FdbErrorCodes.toKvStoreException(fromJoin, Phase.COMMIT))
        .isInstanceOf(TransactionConflictException.class)
        .hasCause(conflict);
    assertThat(
            FdbErrorCodes.toKvStoreException(
                new ExecutionException(new CompletionException(conflict)), Phase.COMMIT))
        .isInstanceOf(TransactionConflictException.class)
        .hasCause(conflict);
  }

  @Test
  void somethingOtherThanAnFdbExceptionIsAFailure() {
    IllegalStateException odd = new IllegalStateException("boom");
    assertThat(FdbErrorCodes.toKvStoreException(new CompletionException(odd), Phase.COMMIT))
        .isInstanceOf(KvStoreFailureException.class)
        .hasCause(odd)
        .hasMessageContaining("during commit")
        .hasMessageContaining("boom");
  }

  @Test
  void aCoreExceptionPassesThroughUnchanged() {
    TransactionConflictException already = new TransactionConflictException("from core");
    assertThat(FdbErrorCodes.toKvStoreException(new CompletionException(already), Phase.COMMIT))
        .isSameAs(already);
  }

  private static CompletionException catchCompletion(CompletableFuture<?> future) {
    try {
      future.join();
    } catch (CompletionException e) {
      return e;
    }
    throw new AssertionError("future did not fail");
  }
}
