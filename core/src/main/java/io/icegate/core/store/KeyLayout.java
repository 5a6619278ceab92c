package io.icegate.core.store;

import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

/**
 * Every key icegate writes, described once. Each subspace is a FoundationDB tuple-layer prefix
 * (a small integer, to keep keys short); keys inside it are tuples, so they sort by their elements
 * in every driver. Nobody builds keys by hand elsewhere: repositories ask this class for the
 * subspace they own and pack tuples under it.
 *
 * <p>Changing a tag renders existing stores unreadable: tags are never reused or renumbered.
 */
public final class KeyLayout {

  /**
   * Store-wide metadata: {@code (name) -> value}. Holds the layout format version and the
   * page-token HMAC key (generated once, shared by every gateway instance). Written by the store
   * bootstrap.
   */
  public static final Subspace META = subspace(0);

  /**
   * Resource records: {@code (account id, kind, resource id) -> JSON}. Written only by the resource
   * repository, in the same transaction as the name index entry and any receipt.
   */
  public static final Subspace RESOURCES = subspace(1);

  /**
   * Display-name index: {@code (account id, kind, scope..., name) -> resource id}, one entry per
   * live resource, keeping names unique in their scope. Written with {@link #RESOURCES}.
   */
  public static final Subspace NAME_INDEX = subspace(2);

  /**
   * Idempotency records: {@code (account id, operation, idempotency key) -> pending reservation or
   * immutable receipt}. Written by the idempotent-create protocol.
   */
  public static final Subspace RECEIPTS = subspace(3);

  /**
   * Deletion fences: {@code (kind, resource id) -> fence}. Installed before a multi-transaction
   * delete; every mutation under the fenced resource asserts its absence in its own transaction.
   */
  public static final Subspace FENCES = subspace(4);

  /**
   * Dependency counters: {@code (kind, resource id, dependent kind) -> count}. Asserted in the same
   * transaction as the delete they guard.
   */
  public static final Subspace COUNTERS = subspace(5);

  /**
   * Namespace claims: {@code (catalog id, namespace id, overlay id) -> claim}. Written by
   * reconciliation.
   */
  public static final Subspace CLAIMS = subspace(6);

  /**
   * Encrypted secrets: {@code (owner resource id, credential generation) -> AES-GCM ciphertext}.
   * Written by the CredentialStore only.
   */
  public static final Subspace CREDENTIALS = subspace(7);

  /**
   * Content-addressed chunks of large immutable payloads: {@code (sha-256, chunk index) -> bytes}.
   * Written before the pointer transaction that references them.
   */
  public static final Subspace BLOBS = subspace(8);

  /**
   * Scratch space for the store self-check ({@code icegate store-check}), the conformance suite and
   * benchmarks; never read by the product.
   */
  public static final Subspace SCRATCH = subspace(127);

  private KeyLayout() {}

  private static Subspace subspace(int tag) {
    return new Subspace(Tuple.from(tag));
  }
}
