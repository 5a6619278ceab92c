package io.icegate.core.repo;

import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The compare-and-set precondition of a mutation: the generations the caller accepts (from the
 * ETags of an {@code If-Match} list, or a read in the same transaction), or none.
 *
 * @param generations the accepted generations, any one of which satisfies the precondition (RFC
 *     9110 13.1.1: {@code If-Match} with a list succeeds when one tag matches); empty for no
 *     precondition
 */
public record ExpectedGeneration(Set<Long> generations) {
  private static final ExpectedGeneration ANY = new ExpectedGeneration(Set.of());

  public ExpectedGeneration {
    generations = generations == null ? Set.of()
        : java.util.Collections.unmodifiableSortedSet(new TreeSet<>(generations));
  }

  /** No precondition: the mutation applies to whatever generation is current. */
  public static ExpectedGeneration any() {
    return ANY;
  }

  /** The mutation applies only while the resource is at {@code generation}. */
  public static ExpectedGeneration of(long generation) {
    return new ExpectedGeneration(Set.of(generation));
  }

  /**
   * The mutation applies while the resource is at any of {@code generations}.
   *
   * @throws IllegalArgumentException when {@code generations} is empty (that would be no
   *     precondition at all)
   */
  public static ExpectedGeneration oneOf(Set<Long> generations) {
    if (generations.isEmpty()) {
      throw new IllegalArgumentException("at least one expected generation");
    }
    return new ExpectedGeneration(generations);
  }

  /** Whether a resource at {@code actual} satisfies this precondition. */
  public boolean matches(long actual) {
    return generations.isEmpty() || generations.contains(actual);
  }

  /** The accepted generations for a message: {@code 5}, or {@code 4 or 5}; {@code any}. */
  public String describe() {
    return generations.isEmpty() ? "any"
        : generations.stream().map(String::valueOf).collect(Collectors.joining(" or "));
  }
}
