package io.icegate.core.testing;

import io.icegate.core.durability.IdempotentCreates;
import io.icegate.core.durability.IdempotentResult;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ResourceSpec;
import io.icegate.core.repo.CreateOutcome;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.repo.Repositories;
import io.icegate.core.repo.ResourceRepository;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The answers idempotent creates gave, so a test can replay every key afterwards and demand the
 * same answer ("no lost receipt"): the same resource snapshot (id, generation, spec, timestamps)
 * and disposition, or the same error code. Thread-safe.
 */
public final class ReplayLedger {
  private final List<Entry> entries = new ArrayList<>();

  /** A create's first answer: a created or existing resource. */
  public synchronized <S extends ResourceSpec> void recordAnswer(
      ResourceRepository<S> repository, String key, String fingerprint, S spec,
      OnConflict onConflict, CreateOutcome<S> answer) {
    ResourceKind kind = repository.kind();
    String accountId = repository.accountId();
    entries.add(new Entry(accountId, key, (repos, creates) -> {
      IdempotentResult<S> replay;
      try {
        replay = creates.create(
            repositoryOf(repos, kind, accountId), key, fingerprint, spec, onConflict);
      } catch (IcegateException e) {
        return "key " + key + " answered " + answer + " first, " + e.code() + " on replay";
      }
      if (!replay.replayed() || !replay.outcome().equals(answer)) {
        return "key " + key + " answered " + answer + " first, " + replay + " on replay";
      }
      return null;
    }));
  }

  /** A create's first answer: a rejection that must be recorded (e.g. ALREADY_EXISTS). */
  public synchronized <S extends ResourceSpec> void recordRejection(
      ResourceRepository<S> repository, String key, String fingerprint, S spec,
      OnConflict onConflict, ErrorCode code) {
    ResourceKind kind = repository.kind();
    String accountId = repository.accountId();
    entries.add(new Entry(accountId, key, (repos, creates) -> {
      try {
        IdempotentResult<S> replay = creates.create(
            repositoryOf(repos, kind, accountId), key, fingerprint, spec, onConflict);
        return "key " + key + " was rejected with " + code + " first, answered " + replay
            + " on replay";
      } catch (IcegateException e) {
        return e.code() == code ? null
            : "key " + key + " was rejected with " + code + " first, " + e.code() + " on replay";
      }
    }));
  }

  /** How many answers are recorded. */
  public synchronized int size() {
    return entries.size();
  }

  /**
   * Replays, through {@code repos} and {@code creates} (e.g. over the store without faults), every
   * recorded key whose account passes {@code include} ({@code null} for the account creates of the
   * server-wide partition) and fails on any answer that differs.
   */
  public synchronized void assertReplays(
      Repositories repos, IdempotentCreates creates, Predicate<String> include) {
    List<String> problems = new ArrayList<>();
    for (Entry entry : entries) {
      if (include.test(entry.accountId())) {
        String problem = entry.check().replay(repos, creates);
        if (problem != null) {
          problems.add(problem);
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new AssertionError("lost receipts:\n  " + String.join("\n  ", problems));
    }
  }

  private record Entry(String accountId, String key, Replay check) {
    Entry {
      Objects.requireNonNull(key);
    }
  }

  @FunctionalInterface
  private interface Replay {
    /** A problem description, or {@code null} when the replay answered as recorded. */
    String replay(Repositories repos, IdempotentCreates creates);
  }

  @SuppressWarnings("unchecked")
  private static <S extends ResourceSpec> ResourceRepository<S> repositoryOf(
      Repositories repos, ResourceKind kind, String accountId) {
    return (ResourceRepository<S>) switch (kind) {
      case ACCOUNT -> repos.accounts();
      case CATALOG -> repos.catalogs(accountId);
      case NAMESPACE -> repos.namespaces(accountId);
      case TABLE -> repos.tables(accountId);
      case VIEW -> repos.views(accountId);
      case INTEGRATION -> repos.integrations(accountId);
      case OVERLAY -> repos.overlays(accountId);
    };
  }
}
