package io.icegate.gateway.iceberg;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.core.durability.IdempotencySettings;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KvLimits;
import io.icegate.core.store.KvStore;
import io.icegate.gateway.catalog.RepositoryCatalog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * {@code Idempotency-Key} on mutating Iceberg routes (REST spec, added after iceberg-core 1.10):
 * the first request with a key runs and its final answer (2xx or 4xx) is kept as a receipt for
 * {@link IdempotencySettings#receiptLifetime()}; a retry with the same key and the same request
 * gets that answer replayed without running again. A 5xx is never recorded, so a retry after a
 * server failure runs again. The same key with another request is 422; while the first is still
 * running (its lease not lapsed), 409.
 *
 * <p>Records live in the store's receipt subspace under {@code (account, "iceberg", key)}. The
 * receipt is written in a transaction after the operation's own, so a crash between the two
 * leaves a pending record whose lease lapses and lets a retry run again (the repositories'
 * receipt-in-batch protocol covers resource creates only). Answers larger than a store value
 * (100 kB) are not recorded: the pending record is cleared and a retry runs again.
 */
public final class IdempotentReplies {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String OPERATION = "iceberg";
  private static final int MAX_KEY_LENGTH = 255;

  private final KvStore store;
  private final IdempotencySettings settings;
  private final Clock clock;

  public IdempotentReplies(KvStore store, IdempotencySettings settings, Clock clock) {
    this.store = store;
    this.settings = settings;
    this.clock = clock;
  }

  /** A stored record: pending while {@code status} is 0, else the receipt of the answer. */
  record Receipt(String fingerprint, long expiresAtMillis, int status, String body) {}

  IcebergReply serve(RepositoryCatalog catalog, IcebergRequest request, Supplier<IcebergReply> op) {
    String key = request.idempotencyKey();
    if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
      throw new IllegalArgumentException("Idempotency-Key must be 1 to 255 characters");
    }
    String accountId = request.principal().accountId();
    byte[] storeKey = KeyLayout.receipt(accountId, OPERATION, key);
    String fingerprint = fingerprint(catalog.catalogId(), request);
    IcebergReply replay = store.run(tx -> {
      Instant now = clock.instant();
      Receipt existing = decode(tx.get(storeKey));
      if (existing != null && existing.expiresAtMillis() > now.toEpochMilli()) {
        if (!existing.fingerprint().equals(fingerprint)) {
          throw new UnprocessableEntityException(
              "Idempotency-Key %s was used for a different request", key);
        }
        if (existing.status() == 0) {
          throw new CommitFailedException(
              "A request with Idempotency-Key %s is still in progress", key);
        }
        byte[] body = existing.body() == null
            ? null : existing.body().getBytes(StandardCharsets.UTF_8);
        return new IcebergReply(existing.status(), body, Map.of("Idempotent-Replayed", "true"));
      }
      long lease = now.plus(settings.lease()).toEpochMilli();
      tx.set(storeKey, encode(new Receipt(fingerprint, lease, 0, null)));
      return null;
    });
    if (replay != null) {
      return replay;
    }
    IcebergReply reply;
    try {
      reply = serialized(op.get());
    } catch (RuntimeException e) {
      ErrorResponse error = ErrorMapping.toResponse(e);
      if (error.code() >= 500) {
        store.run(tx -> {
          tx.clear(storeKey);
          return null;
        });
        throw e;
      }
      reply = serialized(new IcebergReply(error.code(), error, Map.of()));
    }
    record(storeKey, fingerprint, reply);
    return reply;
  }

  private void record(byte[] storeKey, String fingerprint, IcebergReply reply) {
    String body = reply.body() == null
        ? null : new String((byte[]) reply.body(), StandardCharsets.UTF_8);
    long expires = clock.instant().plus(settings.receiptLifetime()).toEpochMilli();
    byte[] value = encode(new Receipt(fingerprint, expires, reply.status(), body));
    boolean fits = value.length <= KvLimits.MAX_VALUE_BYTES && reply.status() < 500;
    store.run(tx -> {
      if (fits) {
        tx.set(storeKey, value);
      } else {
        tx.clear(storeKey);
      }
      return null;
    });
  }

  private static IcebergReply serialized(IcebergReply reply) {
    if (reply.body() == null || reply.body() instanceof byte[]) {
      return reply;
    }
    try {
      byte[] bytes = IcebergJson.mapper().writeValueAsBytes(reply.body());
      return new IcebergReply(reply.status(), bytes, reply.headers());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** SHA-256 of what identifies the request: catalog, route, path variables, query, body. */
  private static String fingerprint(String catalogId, IcebergRequest request) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      digest.update((catalogId + '\n' + request.route() + '\n').getBytes(StandardCharsets.UTF_8));
      digest.update(JSON.writeValueAsBytes(new TreeMap<>(request.pathVariables())));
      digest.update(JSON.writeValueAsBytes(new TreeMap<>(request.query())));
      digest.update(request.body());
      return HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException | JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] encode(Receipt receipt) {
    try {
      return JSON.writeValueAsBytes(receipt);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Receipt decode(byte[] value) {
    if (value == null) {
      return null;
    }
    try {
      return JSON.readValue(value, Receipt.class);
    } catch (IOException e) {
      throw new IllegalStateException("unreadable idempotency record", e);
    }
  }
}
