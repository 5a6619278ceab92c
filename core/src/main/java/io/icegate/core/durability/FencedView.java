package io.icegate.core.durability;

import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceSpec;
import io.icegate.core.paging.Page;
import io.icegate.core.store.ReadTransaction;
import java.util.Optional;

/**
 * A resource as an admin reads it, with the deletion fence on it if one is set, both read in one
 * read transaction. A fence on a resource whose record still exists means a delete (or an
 * Overlay's replacement, or an Integration cascade) started and has not finished: its process may
 * have died, and the resource stays read-only until the delete is repeated. Showing it keeps such a
 * resource from looking healthy.
 *
 * @param resource the record
 * @param deletionFence the fence on it, or {@code null} when none is set
 */
public record FencedView<S extends ResourceSpec>(Resource<S> resource, Fence deletionFence) {

  /** Whether a deletion fence is set on the resource. */
  public boolean deleting() {
    return deletionFence != null;
  }

  /** {@code resource} with the fence read in {@code tx}. */
  public static <S extends ResourceSpec> FencedView<S> of(
      ReadTransaction tx, DeletionFences fences, Resource<S> resource) {
    Optional<Fence> fence = fences.read(tx, resource.ref());
    return new FencedView<>(resource, fence.orElse(null));
  }

  /** Each item of {@code page} with its fence read in {@code tx} (the page's transaction). */
  public static <S extends ResourceSpec> Page<FencedView<S>> of(
      ReadTransaction tx, DeletionFences fences, Page<Resource<S>> page) {
    return new Page<>(page.items().stream().map(r -> of(tx, fences, r)).toList(),
        page.nextPageToken());
  }
}
