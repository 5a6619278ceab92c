package io.icegate.core.durability;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Objects;

/**
 * What is stored under an idempotency key (JSON, {@link
 * io.icegate.core.store.KeySubspace#RECEIPTS}): while {@code receipt} is {@code null}, a pending
 * reservation; afterwards, an immutable receipt. One format for every operation: resource creates
 * ({@link IdempotentCreates}) and the Iceberg routes' answers ({@link IdempotencyKeys#run}).
 *
 * @param fingerprint fingerprint of the first request with this key
 * @param reservedId the resource id reserved for a create; {@code null} for an operation without a
 *     reserved identity
 * @param holder random id of the attempt holding the lease (recognises one's own reservation after
 *     a commit with unknown result)
 * @param leaseExpiresAt until when the holder owns the reservation
 * @param receipt the recorded answer, once published
 */
record IdempotencyRecord(
    String fingerprint,
    @JsonInclude(JsonInclude.Include.NON_NULL) String reservedId,
    String holder,
    Instant leaseExpiresAt,
    Receipt receipt) {

  IdempotencyRecord {
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(holder, "holder");
    Objects.requireNonNull(leaseExpiresAt, "leaseExpiresAt");
  }

  boolean pending() {
    return receipt == null;
  }

  /**
   * The recorded answer.
   *
   * @param status HTTP status of the answer (201, 200 or the error's status)
   * @param disposition the {@link io.icegate.core.repo.CreateOutcome.Disposition} name on success
   *     of a create
   * @param resource the resource snapshot as published, on success of a create
   * @param errorCode the {@link io.icegate.core.error.ErrorCode} name on a recorded rejection of a
   *     create
   * @param errorSubject the resource kind label the rejection is about, if any
   * @param errorMessage the rejection's (secret-free) message
   * @param recordedAt when the answer was recorded
   * @param expiresAt after this the receipt is ignored and may be swept
   * @param body the answer's body as sent, for an operation that is not a create (omitted when
   *     {@code null}, so create receipts keep their stored shape)
   */
  record Receipt(
      int status,
      String disposition,
      JsonNode resource,
      String errorCode,
      String errorSubject,
      String errorMessage,
      Instant recordedAt,
      Instant expiresAt,
      @JsonInclude(JsonInclude.Include.NON_NULL) String body) {

    /** The receipt of an operation's answer: its status and body. */
    static Receipt ofAnswer(int status, String body, Instant recordedAt, Instant expiresAt) {
      return new Receipt(status, null, null, null, null, null, recordedAt, expiresAt, body);
    }
  }
}
