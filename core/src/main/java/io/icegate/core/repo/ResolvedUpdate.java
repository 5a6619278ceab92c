package io.icegate.core.repo;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceSpec;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.KvStore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ObjIntConsumer;

/** Runs an update-like body of one repository, resolving an unknown commit by comparing what it wrote. */
final class ResolvedUpdate {
  private ResolvedUpdate() {}

  /**
   * @param what the operation, for COMMIT_STATE_UNKNOWN
   * @param giveUpAfter throws once the attempts allowed for unknown results are used up
   */
  static <S extends ResourceSpec> Resource<S> run(ResourceRepository<S> repository,
      KvStore.TransactionBody<Resource<S>> body, String id, String what,
      ObjIntConsumer<CommitUnknownResultException> giveUpAfter) {
    AtomicReference<Resource<S>> written = new AtomicReference<>();
    for (int attempt = 1; ; attempt++) {
      try {
        return repository.store().run(tx -> {
          Resource<S> next = body.apply(tx);
          written.set(next);
          return next;
        });
      } catch (CommitUnknownResultException e) {
        Resource<S> intended = written.get();
        Resource<S> stored = repository.get(id).orElse(null);
        long gap = stored == null ? -1 : intended.generation() - stored.generation();
        if (gap == 0 && stored.spec().equals(intended.spec())) {
          return stored; // our write is there
        }
        // gap 1: still at the generation the attempt read; gap 0 with another spec: someone else
        // took that generation. Either way ours did not commit and the body decides again.
        // Anything else (deleted, or advanced past ours) cannot tell whether ours committed.
        if (gap != 1 && gap != 0) {
          throw new IcegateException(ErrorCode.COMMIT_STATE_UNKNOWN, repository.kind(), what);
        }
        giveUpAfter.accept(e, attempt);
      }
    }
  }
}
