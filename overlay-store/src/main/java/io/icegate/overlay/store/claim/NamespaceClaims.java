package io.icegate.overlay.store.claim;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.subspace.Subspace;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.icegate.core.model.ModelJson;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Namespace claims (seed 000, "Catalog overlay"): which Overlays use a Namespace, and whether
 * materialization created it. A claimed Namespace cannot be dropped or moved (409 naming the
 * Overlay) but stays writable for local content. Releasing the last claim lets the caller prune
 * the Namespace only when materialization created it and it holds nothing (see {@link
 * #release}).
 *
 * <p>Both index directions ({@link KeySubspace#CLAIMS}) are written in the caller's transaction;
 * all reads are serializable, so a concurrent claim and drop conflict instead of both succeeding.
 */
public final class NamespaceClaims {

  /**
   * One Overlay's claim on a Namespace.
   *
   * @param namespaceId the claimed Namespace's resource id
   * @param overlayId the claiming CatalogOverlay's id
   * @param createdByMaterialization whether this Overlay's materialization created the Namespace
   *     (then it may be pruned once unclaimed and empty)
   */
  public record Claim(String namespaceId, String overlayId, boolean createdByMaterialization) {}

  private record Stored(boolean createdByMaterialization) {}

  /**
   * Records {@code overlayId}'s claim on {@code namespaceId}; an existing claim keeps its {@code
   * createdByMaterialization} flag (a Namespace is created once).
   *
   * @return whether a claim was written (false when it already existed: no write at all)
   */
  public boolean claim(
      Transaction tx, String accountId, String namespaceId, String overlayId,
      boolean createdByMaterialization) {
    byte[] key = KeyLayout.claim(accountId, namespaceId, overlayId);
    if (tx.get(key) != null) {
      return false;
    }
    tx.set(key, encode(new Stored(createdByMaterialization)));
    tx.set(KeyLayout.claimOfOverlay(accountId, overlayId, namespaceId), new byte[0]);
    return true;
  }

  /**
   * Removes {@code overlayId}'s claim on {@code namespaceId}, if any.
   *
   * <p>When other claims remain and the released one carried the creator flag, the flag moves to
   * a remaining claim, so the Namespace stays prunable when the last one goes.
   *
   * @return true when no claim remains and materialization created the Namespace: it may be
   *     pruned once the caller has checked it holds no namespaces, tables or views
   */
  public boolean release(Transaction tx, String accountId, String namespaceId, String overlayId) {
    byte[] key = KeyLayout.claim(accountId, namespaceId, overlayId);
    byte[] value = tx.get(key);
    if (value == null) {
      return false;
    }
    tx.clear(key);
    tx.clear(KeyLayout.claimOfOverlay(accountId, overlayId, namespaceId));
    List<Claim> remaining = claimsOn(tx, accountId, namespaceId);
    if (!remaining.isEmpty()) {
      // The creator flag moves to a remaining claim so the Namespace stays prunable later.
      if (decode(value).createdByMaterialization()
          && remaining.stream().noneMatch(Claim::createdByMaterialization)) {
        Claim heir = remaining.get(0);
        tx.set(KeyLayout.claim(accountId, namespaceId, heir.overlayId()), encode(new Stored(true)));
      }
      return false;
    }
    return decode(value).createdByMaterialization();
  }

  /** Every claim on {@code namespaceId}, in overlay-id order (a serializable range read). */
  public List<Claim> claimsOn(ReadTransaction tx, String accountId, String namespaceId) {
    return claimsOn(tx, accountId, namespaceId, 0);
  }

  /** The first claim on {@code namespaceId}, if any (what a refused drop or move names). */
  public Optional<Claim> anyClaimOn(ReadTransaction tx, String accountId, String namespaceId) {
    return claimsOn(tx, accountId, namespaceId, 1).stream().findFirst();
  }

  /** Up to {@code limit} claims on {@code namespaceId} (0: all), in overlay-id order. */
  private List<Claim> claimsOn(ReadTransaction tx, String accountId, String namespaceId,
      int limit) {
    Subspace claims = KeyLayout.claimsOnNamespace(accountId, namespaceId);
    Range range = claims.range();
    List<Claim> found = new ArrayList<>();
    for (KeyValue kv :
        tx.getRange(range.begin, range.end, limit, ReadTransaction.Direction.FORWARD)) {
      found.add(new Claim(namespaceId, claims.unpack(kv.key()).getString(0),
          decode(kv.value()).createdByMaterialization()));
    }
    return found;
  }

  /** Ids of every Namespace {@code overlayId} claims, in id order. */
  public List<String> claimedBy(ReadTransaction tx, String accountId, String overlayId) {
    Subspace claims = KeyLayout.claimsOfOverlay(accountId, overlayId);
    Range range = claims.range();
    List<String> ids = new ArrayList<>();
    for (KeyValue kv : tx.getRange(range.begin, range.end)) {
      ids.add(claims.unpack(kv.key()).getString(0));
    }
    return ids;
  }

  private static byte[] encode(Stored stored) {
    try {
      return ModelJson.mapper().writeValueAsBytes(stored);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Stored decode(byte[] bytes) {
    try {
      return ModelJson.mapper().readValue(bytes, Stored.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
