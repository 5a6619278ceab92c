package io.icegate.gateway.iceberg;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.core.durability.IdempotencyKeys;
import io.icegate.core.durability.IdempotencySettings;
import io.icegate.core.store.KvStore;
import io.icegate.gateway.catalog.RepositoryCatalog;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * {@code Idempotency-Key} on mutating Iceberg routes (REST spec, added after iceberg-core 1.10),
 * on core's one idempotency primitive, {@link IdempotencyKeys#run}: the first request with a key
 * runs and its final answer (2xx or 4xx) is kept as a receipt for {@link
 * IdempotencySettings#receiptLifetime()}; a retry with the same key and the same request gets that
 * answer replayed ({@code Idempotency-Replayed: true}) without running again. A 5xx is never
 * recorded, so a retry after a server failure runs again. The same key with another request is
 * 422; while the first is still running (its lease not lapsed), 409. This class only says what
 * identifies an Iceberg request and how its answer is kept: records live under {@code (account,
 * "iceberg", key)}.
 */
public final class IdempotentReplies {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String OPERATION = "iceberg";
  private static final IdempotencyKeys.Answers<IcebergReply> ANSWERS = new IdempotencyKeys.Answers<>() {
    @Override
    public Optional<IdempotencyKeys.Answer> toRecord(IcebergReply reply) {
      if (reply.status() >= 500) {
        return Optional.empty();
      }
      String body = reply.body() == null
          ? null : new String((byte[]) reply.body(), StandardCharsets.UTF_8);
      return Optional.of(new IdempotencyKeys.Answer(reply.status(), body));
    }

    @Override
    public IcebergReply replay(IdempotencyKeys.Answer recorded) {
      byte[] body = recorded.body() == null
          ? null : recorded.body().getBytes(StandardCharsets.UTF_8);
      return new IcebergReply(recorded.status(), body, Map.of("Idempotency-Replayed", "true"));
    }
  };

  private final IdempotencyKeys keys;

  public IdempotentReplies(KvStore store, IdempotencySettings settings, Clock clock) {
    this.keys = new IdempotencyKeys(store, clock, settings);
  }

  IcebergReply serve(RepositoryCatalog catalog, IcebergRequest request, Supplier<IcebergReply> op) {
    return keys.run(request.principal().accountId(), OPERATION, request.idempotencyKey(),
        fingerprint(catalog.catalogId(), request), ANSWERS, () -> finalAnswer(op));
  }

  /** The operation's reply, or its 4xx rejection as a reply (recorded); a 5xx is thrown. */
  private static IcebergReply finalAnswer(Supplier<IcebergReply> op) {
    try {
      return serialized(op.get());
    } catch (RuntimeException e) {
      ErrorResponse error = ErrorMapping.toResponse(e);
      if (error.code() >= 500) {
        throw e;
      }
      return serialized(new IcebergReply(error.code(), error, Map.of()));
    }
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
}
