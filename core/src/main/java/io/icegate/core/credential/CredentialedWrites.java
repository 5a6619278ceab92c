package io.icegate.core.credential;

import io.icegate.core.durability.CreateRequest;
import io.icegate.core.durability.IdempotentCreates;
import io.icegate.core.durability.IdempotentResult;
import io.icegate.core.durability.RequestFingerprint;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.jobs.JobCleanup;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceSpec;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.CreateOutcome;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.KvStoreException;
import io.icegate.core.store.Transaction;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Creates and updates of resources that own a secret (integrations, catalogs with storage keys),
 * following {@link CredentialPublication} around the resource transaction. Secrets never enter a
 * fingerprint, a record or a message.
 */
public final class CredentialedWrites {
  private final CredentialPublication publication;
  private final IdempotentCreates creates;

  public CredentialedWrites(CredentialPublication publication, IdempotentCreates creates) {
    this.publication = Objects.requireNonNull(publication, "publication");
    this.creates = Objects.requireNonNull(creates, "creates");
  }

  /**
   * Creates {@code spec}; when {@code secret} is given, its first credential generation is
   * prepared under the new id before the resource transaction and published with it.
   *
   * @param fingerprintSource the request without secret members (the idempotency fingerprint)
   * @param withGeneration {@code spec} at a credential generation
   * @return the outcome; a replay returns the first published answer
   */
  public <S extends ResourceSpec> IdempotentResult<S> create(ResourceRepository<S> repository,
      S spec, SecretValues secret, CreateRequest request, Object fingerprintSource,
      BiFunction<S, Long, S> withGeneration) {
    return create(repository, spec, secret, request, fingerprintSource, withGeneration,
        (tx, created, replaced) -> { });
  }

  /**
   * As {@link #create(ResourceRepository, ResourceSpec, SecretValues, CreateRequest, Object,
   * BiFunction)}, with {@code inCreate} run inside the transaction that publishes a new resource
   * (not for an existing one returned, nor for a replayed answer); when it throws, nothing of
   * the create is published.
   */
  public <S extends ResourceSpec> IdempotentResult<S> create(ResourceRepository<S> repository,
      S spec, SecretValues secret, CreateRequest request, Object fingerprintSource,
      BiFunction<S, Long, S> withGeneration, InCreate<S> inCreate) {
    String accountId = repository.accountId();
    if (request.idempotencyKey() != null) {
      return createIdempotently(repository, spec, secret, request, fingerprintSource,
          withGeneration, inCreate);
    }
    String id = ResourceRepository.newId();
    long generation = secret == null ? 0
        : publication.prepare(accountId, id, 0, secret);
    S toPublish = secret == null ? spec : withGeneration.apply(spec, generation);
    try {
      CreateOutcome<S> outcome = repository.store().run(tx -> {
        Optional<Resource<S>> replaced = request.onConflict() == OnConflict.REPLACE
            ? repository.getByName(tx, spec.nameScope(), spec.displayName()) : Optional.empty();
        CreateOutcome<S> created = repository.create(tx, id, toPublish, request.onConflict());
        if (generation > 0 && created.disposition() != CreateOutcome.Disposition.EXISTING) {
          publication.inPublishingTransaction(tx, accountId, id, generation, 0);
        }
        if (created.disposition() == CreateOutcome.Disposition.REPLACED && replaced.isPresent()) {
          // The retired identity's secrets go in the same transaction: never left unreferenced.
          publication.credentials().removeAll(tx, accountId, replaced.get().id());
          if (repository.kind() == ResourceKind.INTEGRATION) {
            // Its upstream jobs and scheduler state go with the retired identity (issue 27).
            JobCleanup.forgetIntegration(tx, accountId, replaced.get().id());
          }
        }
        if (created.disposition() != CreateOutcome.Disposition.EXISTING) {
          inCreate.published(tx, created.resource(),
              created.disposition() == CreateOutcome.Disposition.REPLACED ? replaced
                  : Optional.empty());
        }
        return created;
      });
      if (generation > 0 && outcome.disposition() == CreateOutcome.Disposition.EXISTING) {
        publication.discard(accountId, id, generation);
      }
      return new IdempotentResult<>(outcome, false);
    } catch (CommitUnknownResultException e) {
      Optional<Resource<S>> stored = repository.get(id);
      if (stored.isPresent()) {
        return new IdempotentResult<>(
            new CreateOutcome<>(stored.get(), CreateOutcome.Disposition.CREATED), false);
      }
      if (generation > 0) {
        publication.keep(id, generation);
      }
      throw new IcegateException(ErrorCode.COMMIT_STATE_UNKNOWN, repository.kind(),
          ErrorCode.COMMIT_STATE_UNKNOWN.format("the create of a " + repository.kind().label()), e);
    } catch (IcegateException | KvStoreException e) {
      if (generation > 0) {
        publication.discard(accountId, id, generation);
      }
      throw e;
    }
  }

  private <S extends ResourceSpec> IdempotentResult<S> createIdempotently(
      ResourceRepository<S> repository, S spec, SecretValues secret, CreateRequest request,
      Object fingerprintSource, BiFunction<S, Long, S> withGeneration, InCreate<S> inCreate) {
    String accountId = repository.accountId();
    String fingerprint = RequestFingerprint.of(Map.of(
        "request", fingerprintSource, "onConflict", request.onConflict(),
        "withCredentials", secret != null));
    if (secret == null) {
      // An idempotent create never replaces (IdempotentCreates refuses onConflict=replace).
      return creates.create(repository, request.idempotencyKey(), fingerprint, spec,
          request.onConflict(), new IdempotentCreates.Preparation<>() {
            @Override
            public S prepare(String reservedId, S original) {
              return original;
            }

            @Override
            public void published(Transaction tx, Resource<S> resource) {
              inCreate.published(tx, resource, Optional.empty());
            }
          });
    }
    AtomicReference<String> preparedOwner = new AtomicReference<>();
    AtomicReference<Long> preparedGeneration = new AtomicReference<>(0L);
    IdempotentCreates.Preparation<S> preparation = new IdempotentCreates.Preparation<>() {
      @Override
      public S prepare(String reservedId, S original) {
        long generation = publication.prepare(accountId, reservedId, 0, secret);
        preparedOwner.set(reservedId);
        preparedGeneration.set(generation);
        return withGeneration.apply(original, generation);
      }

      @Override
      public void published(Transaction tx, Resource<S> resource) {
        publication.inPublishingTransaction(tx, accountId, resource.id(),
            preparedGeneration.get(), 0);
        // A first publication under a reserved id an earlier attempt held: what that attempt
        // prepared and, having died, never discarded goes with it.
        publication.credentials().removeAllExcept(tx, accountId, resource.id(),
            preparedGeneration.get());
        inCreate.published(tx, resource, Optional.empty());
      }
    };
    try {
      IdempotentResult<S> result = creates.create(repository, request.idempotencyKey(),
          fingerprint, spec, request.onConflict(), preparation);
      String owner = preparedOwner.get();
      if (owner != null && !publishedBy(result, owner, preparedGeneration.get(), withGeneration,
          spec)) {
        // A replay, an existing resource or another attempt's answer: ours was never published.
        publication.discard(accountId, owner, preparedGeneration.get());
      }
      return result;
    } catch (CommitUnknownResultException e) {
      if (preparedOwner.get() != null) {
        publication.keep(preparedOwner.get(), preparedGeneration.get());
      }
      throw e;
    } catch (IcegateException | KvStoreException e) {
      if (preparedOwner.get() != null) {
        publication.discard(accountId, preparedOwner.get(), preparedGeneration.get());
      }
      throw e;
    }
  }

  /**
   * Work of the resource's own kind in the transaction that publishes a new resource, e.g. a
   * Catalog's warehouse claim.
   *
   * @param <S> the spec type
   */
  @FunctionalInterface
  public interface InCreate<S extends ResourceSpec> {
    /**
     * Runs after the create's own writes, before commit; throwing aborts the whole create.
     *
     * @param created the published resource
     * @param replaced the resource it retired ({@code onConflict=replace}), if any
     */
    void published(Transaction tx, Resource<S> created, Optional<Resource<S>> replaced);
  }

  private static <S extends ResourceSpec> boolean publishedBy(IdempotentResult<S> result,
      String owner, long generation, BiFunction<S, Long, S> withGeneration, S spec) {
    Resource<S> resource = result.outcome().resource();
    return !result.replayed()
        && result.outcome().disposition() != CreateOutcome.Disposition.EXISTING
        && resource.id().equals(owner)
        && resource.spec().equals(withGeneration.apply(spec, generation));
  }

  /**
   * Publishes a new credential generation of resource {@code id} with the spec {@code next}
   * builds for it (a rotation), as a configuration change under {@code expected}.
   *
   * @param currentGeneration reads the credential generation of a spec
   * @throws IcegateException NOT_FOUND, GENERATION_MISMATCH, FENCED, COMMIT_STATE_UNKNOWN
   */
  public <S extends ResourceSpec> Resource<S> publishGeneration(ResourceRepository<S> repository,
      String id, ExpectedGeneration expected, SecretValues secret,
      ToLongFunction<S> currentGeneration, Function<Long, Function<S, S>> next) {
    String accountId = repository.accountId();
    Resource<S> current = repository.get(id).orElseThrow(() -> new IcegateException(
        ErrorCode.NOT_FOUND, repository.kind(), repository.kind().label(), id));
    if (!expected.matches(current.generation())) {
      throw new IcegateException(ErrorCode.GENERATION_MISMATCH, repository.kind(),
          repository.kind().label(), id, current.generation(), expected.describe());
    }
    long oldGeneration = currentGeneration.applyAsLong(current.spec());
    long generation = publication.prepare(accountId, id, oldGeneration, secret);
    // The generation the committed transaction replaced (not the one read before it: a
    // concurrent rotation may have published another in between) is the one to retire.
    AtomicLong replaced = new AtomicLong();
    try {
      Resource<S> published = repository.store().run(tx -> {
        Resource<S> now = repository.require(tx, id);
        Resource<S> updated = repository.update(tx, id, expected,
            next.apply(generation).apply(now.spec()), ChangeKind.CONFIGURATION);
        replaced.set(currentGeneration.applyAsLong(now.spec()));
        publication.inPublishingTransaction(tx, accountId, id, generation, replaced.get());
        return updated;
      });
      publication.retire(accountId, id, replaced.get());
      return published;
    } catch (CommitUnknownResultException e) {
      Optional<Resource<S>> stored = repository.get(id);
      if (stored.isPresent() && currentGeneration.applyAsLong(stored.get().spec()) == generation) {
        // the last attempt is the one that committed: it read what it replaced
        publication.retire(accountId, id, replaced.get());
        return stored.get();
      }
      publication.keep(id, generation);
      throw new IcegateException(ErrorCode.COMMIT_STATE_UNKNOWN, repository.kind(),
          ErrorCode.COMMIT_STATE_UNKNOWN.format("the credential rotation of "
              + repository.kind().label() + " " + id), e);
    } catch (IcegateException | KvStoreException e) {
      publication.discard(accountId, id, generation);
      throw e;
    }
  }
}
