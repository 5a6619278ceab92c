package io.icegate.storage.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.KvStoreException;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.TransactionConflictException;
import io.icegate.storage.sqlite.SqliteErrorClassifier.Phase;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The mapping table of SQLite result codes. I/O errors and a full disk cannot be provoked on a
 * real file here (the tests run as root on a healthy disk), so those rows are checked with the
 * driver's own exception type; busy and not-a-database are also provoked for real in
 * {@link SqliteEngineTest}.
 */
class SqliteErrorClassifierTest {

  private static KvStoreException classify(SQLiteErrorCode code, Phase phase) {
    return SqliteErrorClassifier.classify(
        new SQLiteException("[" + code.name() + "] test", code), phase, "sqlite:/x.db");
  }

  @Test
  void busyAndLockedAreRetryableConflictsInEveryPhase() {
    for (Phase phase : Phase.values()) {
      assertThat(classify(SQLiteErrorCode.SQLITE_BUSY, phase))
          .isInstanceOf(TransactionConflictException.class);
      assertThat(classify(SQLiteErrorCode.SQLITE_BUSY_SNAPSHOT, phase))
          .isInstanceOf(TransactionConflictException.class);
      assertThat(classify(SQLiteErrorCode.SQLITE_LOCKED, phase))
          .isInstanceOf(TransactionConflictException.class);
    }
    assertThat(classify(SQLiteErrorCode.SQLITE_BUSY, Phase.BEGIN).kind().retryable()).isTrue();
  }

  @Test
  void ioErrorDuringCommitLeavesTheOutcomeUnknown() {
    assertThat(classify(SQLiteErrorCode.SQLITE_IOERR, Phase.COMMIT))
        .isInstanceOf(CommitUnknownResultException.class);
    assertThat(classify(SQLiteErrorCode.SQLITE_IOERR_FSYNC, Phase.COMMIT))
        .isInstanceOf(CommitUnknownResultException.class);
  }

  @Test
  void otherErrorsAreFailures() {
    assertThat(classify(SQLiteErrorCode.SQLITE_IOERR, Phase.STATEMENT))
        .isInstanceOf(KvStoreFailureException.class);
    assertThat(classify(SQLiteErrorCode.SQLITE_IOERR_FSYNC, Phase.BEGIN))
        .isInstanceOf(KvStoreFailureException.class);
    assertThat(classify(SQLiteErrorCode.SQLITE_FULL, Phase.COMMIT))
        .isInstanceOf(KvStoreFailureException.class);
    assertThat(classify(SQLiteErrorCode.SQLITE_CORRUPT, Phase.STATEMENT))
        .isInstanceOf(KvStoreFailureException.class);
    assertThat(classify(SQLiteErrorCode.SQLITE_NOTADB, Phase.OPEN))
        .isInstanceOf(KvStoreFailureException.class);
    assertThat(classify(SQLiteErrorCode.UNKNOWN_ERROR, Phase.COMMIT))
        .isInstanceOf(KvStoreFailureException.class);
    KvStoreException plain =
        SqliteErrorClassifier.classify(
            new SQLException("database connection closed"), Phase.COMMIT, "sqlite:/x.db");
    assertThat(plain).isInstanceOf(KvStoreFailureException.class);
  }

  @Test
  void messageNamesTheStoreAndPhaseAndKeepsTheCause() {
    SQLiteException cause = new SQLiteException("[SQLITE_FULL] disk full", SQLiteErrorCode.SQLITE_FULL);
    KvStoreException mapped = SqliteErrorClassifier.classify(cause, Phase.STATEMENT, "sqlite:/x.db");
    assertThat(mapped.getMessage()).startsWith("sqlite:/x.db: statement failed");
    assertThat(mapped.getCause()).isSameAs(cause);
  }
}
