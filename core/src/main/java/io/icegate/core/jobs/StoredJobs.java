package io.icegate.core.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.icegate.core.model.Integration;
import io.icegate.core.model.ModelJson;
import io.icegate.core.model.Resource;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/** Reads and writes the JSON of {@link KeySubspace#JOBS} and {@link KeySubspace#SCHEDULES}. */
final class StoredJobs {
  private StoredJobs() {}

  static Optional<UpstreamJob> job(ReadTransaction tx, String accountId, String integrationId) {
    return decode(tx.get(KeyLayout.job(accountId, integrationId)), UpstreamJob.class);
  }

  static void putJob(Transaction tx, UpstreamJob job) {
    tx.set(KeyLayout.job(job.accountId(), job.integrationId()), encode(job));
  }

  static void clearJob(Transaction tx, String accountId, String integrationId) {
    tx.clear(KeyLayout.job(accountId, integrationId));
  }

  static Optional<SchedulerState> state(ReadTransaction tx, String accountId,
      String integrationId) {
    return decode(tx.get(KeyLayout.schedule(accountId, integrationId)), SchedulerState.class);
  }

  /**
   * The scheduler state of {@code integration} as planning and the schedule views judge it: a
   * backoff recorded for generations it no longer has is over ({@link
   * SchedulerState#forGenerations}).
   */
  static Optional<SchedulerState> state(ReadTransaction tx, Resource<Integration> integration) {
    return state(tx, integration.accountId(), integration.id()).map(s -> s.forGenerations(
        integration.configurationGeneration(), integration.spec().credentialGeneration()));
  }

  static void putState(Transaction tx, String accountId, String integrationId,
      SchedulerState state) {
    tx.set(KeyLayout.schedule(accountId, integrationId), encode(state));
  }

  static Optional<SchedulerState.OverlayRound> overlayRound(ReadTransaction tx, String accountId,
      String integrationId, String overlayId) {
    return decode(tx.get(KeyLayout.overlaySchedule(accountId, integrationId, overlayId)),
        SchedulerState.OverlayRound.class);
  }

  static void putOverlayRound(Transaction tx, String accountId, String integrationId,
      String overlayId, SchedulerState.OverlayRound round) {
    tx.set(KeyLayout.overlaySchedule(accountId, integrationId, overlayId), encode(round));
  }

  private static byte[] encode(Object value) {
    try {
      return ModelJson.mapper().writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static <T> Optional<T> decode(byte[] bytes, Class<T> type) {
    if (bytes == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(ModelJson.mapper().readValue(bytes, type));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
