package io.icegate.core.catalog;

import com.apple.foundationdb.Range;
import io.icegate.core.credential.CredentialStore;
import io.icegate.core.credential.CredentialedWrites;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.durability.Fence;
import io.icegate.core.durability.IdempotentResult;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogStorage;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Resource;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.DependentNames;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Listing;
import io.icegate.core.repo.Repositories;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.ReadTransaction;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * Catalogs of an account: create, get, list, patch, delete. A storage secret access key goes to
 * the CredentialStore under (catalog id, credential generation), never into the record.
 */
public final class CatalogService {
  private final Repositories repositories;
  private final CredentialedWrites writes;
  private final CredentialStore credentials;

  public CatalogService(Repositories repositories, CredentialedWrites writes,
      CredentialStore credentials) {
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.writes = Objects.requireNonNull(writes, "writes");
    this.credentials = Objects.requireNonNull(credentials, "credentials");
  }

  /**
   * Creates a catalog. Its warehouse is claimed in the creating transaction ({@link
   * WarehouseClaims}): one equal to, containing or inside a warehouse of another account's
   * Catalog is refused; a replacing create releases the retired Catalog's claim.
   *
   * @param secretAccessKey the storage secret (only with {@code storage.s3}), or {@code null}
   * @throws IcegateException INVALID_ARGUMENT (warehouse), ALREADY_EXISTS, NOT_FOUND, FENCED,
   *     WAREHOUSE_OVERLAP, the idempotency codes
   */
  public IdempotentResult<Catalog> create(String accountId, Catalog spec, String secretAccessKey,
      CreateRequest request) {
    checkWarehouse(spec.warehouse());
    SecretValues secret = secret(spec, secretAccessKey);
    checkStaticKeyVending(spec, secret != null);
    if (secret == null && accessKeyId(spec) != null) {
      throw missingSecret();
    }
    return writes.create(repositories.catalogs(accountId), spec, secret, request, spec,
        CatalogService::atGeneration, (tx, created, replaced) -> {
          // the retired Catalog's claim first: a replace may keep the warehouse
          replaced.ifPresent(r -> WarehouseClaims.release(tx, accountId, r.id(),
              r.spec().warehouse()));
          WarehouseClaims.claim(tx, accountId, created.id(), created.spec().warehouse());
        });
  }

  /** @throws IcegateException NOT_FOUND */
  public Resource<Catalog> get(String accountId, String id) {
    ResourceRepository<Catalog> catalogs = repositories.catalogs(accountId);
    return repositories.store().read(tx -> catalogs.require(tx, id));
  }

  /** One page of the account's catalogs in name order. */
  public Page<Resource<Catalog>> list(String accountId, PageRequest page) {
    return repositories.catalogs(accountId).list(Listing.of(NameScope.ACCOUNT_WIDE), page,
        ReadConsistency.EVENTUAL_ALLOWED);
  }

  /**
   * Replaces name, properties and storage of catalog {@code id} ({@code next} carries the merged
   * members; its warehouse must be unchanged). The static keys are a pair, never stored half:
   * <ul>
   *   <li>a {@code secretAccessKey} publishes a new credential generation; {@code next} must name
   *       its access key id;
   *   <li>without one, {@code next} naming the stored access key id keeps the stored generation;
   *   <li>{@code next} without storage or without an access key id removes the stored secret;
   *   <li>{@code next} naming another access key id without its secret is refused.
   * </ul>
   *
   * @throws IcegateException NOT_FOUND, GENERATION_MISMATCH, ALREADY_EXISTS, IMMUTABLE_MEMBER,
   *     INVALID_ARGUMENT naming the missing half of the key pair
   */
  public Resource<Catalog> update(String accountId, String id, ExpectedGeneration expected,
      Catalog next, String secretAccessKey) {
    return update(accountId, id, expected, stored -> next, secretAccessKey);
  }

  /**
   * As {@link #update(String, String, ExpectedGeneration, Catalog, String)}, with {@code patch}
   * merging the request into the stored catalog inside the transaction that writes the result (so
   * a concurrent rename, property change or rotation is not undone by an earlier read).
   */
  public Resource<Catalog> update(String accountId, String id, ExpectedGeneration expected,
      UnaryOperator<Catalog> patch, String secretAccessKey) {
    ResourceRepository<Catalog> catalogs = repositories.catalogs(accountId);
    if (secretAccessKey != null) {
      // Checked on a first read; published as decided on the record the rotation replaces.
      Catalog first = patched(get(accountId, id).spec(), patch);
      checkStaticKeyVending(first, true);
      SecretValues secret = secret(first, secretAccessKey);
      return writes.publishGeneration(catalogs, id, expected, secret,
          Catalog::credentialGeneration,
          generation -> now -> atGeneration(patched(now, patch), generation));
    }
    return repositories.store().run(tx -> {
      // decided on the record this transaction replaces, so a rotation in between is not undone
      Catalog stored = catalogs.require(tx, id).spec();
      Catalog next = patched(stored, patch);
      String keyId = accessKeyId(next);
      boolean keepsStoredPair = keyId != null && stored.credentialGeneration() > 0
          && keyId.equals(accessKeyId(stored));
      checkStaticKeyVending(next, keepsStoredPair);
      if (keyId != null && !keepsStoredPair) {
        throw missingSecret();
      }
      Catalog kept = next.storage() == null || next.storage().s3() == null ? next
          : atGeneration(next, keepsStoredPair ? stored.credentialGeneration() : 0);
      Resource<Catalog> updated = catalogs.update(tx, id, expected, kept, ChangeKind.CONFIGURATION);
      if (!keepsStoredPair) {
        credentials.removeAll(tx, accountId, id); // in the same transaction: never unreferenced
      }
      return updated;
    });
  }

  /** {@code patch} applied to {@code stored}; the warehouse never changes. */
  private static Catalog patched(Catalog stored, UnaryOperator<Catalog> patch) {
    Catalog next = patch.apply(stored);
    if (!Objects.equals(stored.warehouse(), next.warehouse())) {
      throw new IcegateException(io.icegate.core.error.ErrorCode.IMMUTABLE_MEMBER,
          io.icegate.core.model.ResourceKind.CATALOG, "warehouse");
    }
    return next;
  }

  /**
   * Deletes catalog {@code id}, installing its deletion fence in the same transaction (so a client
   * holding the catalog's prefix cannot create under it afterwards), then removes its credentials.
   * Refused while it holds namespaces or Overlays target it (DEPENDENCY_EXISTS, naming a few of
   * each: {@link DependentNames}).
   *
   * <p>When files generated for its deleted Delta tables still await collection ({@link
   * KeyLayout#deletedTablesOf}), the record (warehouse, storage settings) is kept beside them
   * and so is the storage secret: the collector needs both to reach the warehouse after the grace
   * period, and removes the secret with the record once those files are gone. Its warehouse
   * claim goes in the deleting transaction either way, so another account may claim it then.
   *
   * @throws IcegateException NOT_FOUND, GENERATION_MISMATCH, DEPENDENCY_EXISTS
   */
  public Resource<Catalog> delete(String accountId, String id, ExpectedGeneration expected) {
    ResourceRepository<Catalog> catalogs = repositories.catalogs(accountId);
    Resource<Catalog> deleted = repositories.store().run(tx -> {
      Resource<Catalog> was = DependentNames.delete(tx, repositories, catalogs, id, expected);
      repositories.fences().install(tx,
          new Fence(was.ref(), UUID.randomUUID().toString(), repositories.clock().instant(),
              repositories.clock().instant()));
      // The collector of its generated files reads the record kept below, not the claim.
      WarehouseClaims.release(tx, accountId, id, was.spec().warehouse());
      Range pending = KeyLayout.deletedTablesOf(accountId, id).range();
      if (tx.getRange(pending.begin, pending.end, 1, ReadTransaction.Direction.FORWARD)
          .isEmpty()) {
        credentials.removeAll(tx, accountId, id);
      } else {
        tx.set(KeyLayout.generatedDeletedCatalog(accountId, id), catalogs.codec().write(was));
      }
      return was;
    });
    return deleted;
  }

  private static void checkWarehouse(String warehouse) {
    if (warehouse == null || !(warehouse.startsWith("file:") || warehouse.startsWith("s3://"))) {
      throw IcegateException.invalidArgument("warehouse must be a file: or s3:// location");
    }
    // A relative file: path would resolve against whatever directory the server runs in.
    if (warehouse.startsWith("file:") && !warehouse.startsWith("file:/")) {
      throw IcegateException.invalidArgument("a file: warehouse must be an absolute path");
    }
    // What a '..' names depends on who resolves it: neither the location check of the Iceberg
    // routes nor the claims between accounts could tell what it covers.
    if (WarehousePath.of(warehouse) == null) {
      throw IcegateException.invalidArgument("warehouse must not have a '..' segment");
    }
  }

  /** Static-key vending hands out the stored secret, so there must be one. */
  private static void checkStaticKeyVending(Catalog spec, boolean hasSecret) {
    if (spec.storage() != null && spec.storage().s3() != null
        && spec.storage().s3().vendStaticKeys() && !hasSecret) {
      throw IcegateException.invalidArgument(
          "storage.s3.vendStaticKeys needs storage.s3.accessKeyId and secretAccessKey");
    }
  }

  private static SecretValues secret(Catalog spec, String secretAccessKey) {
    if (secretAccessKey == null) {
      return null;
    }
    if (spec.storage() == null || spec.storage().s3() == null) {
      throw IcegateException.invalidArgument("secretAccessKey needs storage.s3");
    }
    if (accessKeyId(spec) == null) {
      throw IcegateException.invalidArgument(
          "storage.s3.accessKeyId is required with storage.s3.secretAccessKey");
    }
    return new SecretValues(Map.of("secretAccessKey", secretAccessKey));
  }

  private static IcegateException missingSecret() {
    return IcegateException.invalidArgument(
        "storage.s3.secretAccessKey is required with a new storage.s3.accessKeyId");
  }

  /** The access key id of {@code spec}'s S3 storage, or null (an empty one counts as none). */
  private static String accessKeyId(Catalog spec) {
    if (spec.storage() == null || spec.storage().s3() == null) {
      return null;
    }
    String id = spec.storage().s3().accessKeyId();
    return id == null || id.isEmpty() ? null : id;
  }

  private static Catalog atGeneration(Catalog spec, long generation) {
    return new Catalog(spec.name(), spec.warehouse(), spec.properties(),
        new CatalogStorage(spec.storage().s3().withCredentialGeneration(generation)));
  }
}
