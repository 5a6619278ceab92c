package io.icegate.core.repo;

import java.util.OptionalLong;

/**
 * The compare-and-set precondition of a mutation: the generation the caller last saw (from an
 * {@code If-Match} ETag or a read in the same transaction), or none.
 */
public record ExpectedGeneration(OptionalLong generation) {
  private static final ExpectedGeneration ANY = new ExpectedGeneration(OptionalLong.empty());

  public ExpectedGeneration {
    if (generation == null) {
      generation = OptionalLong.empty();
    }
  }

  /** No precondition: the mutation applies to whatever generation is current. */
  public static ExpectedGeneration any() {
    return ANY;
  }

  /** The mutation applies only while the resource is at {@code generation}. */
  public static ExpectedGeneration of(long generation) {
    return new ExpectedGeneration(OptionalLong.of(generation));
  }

  /** Whether a resource at {@code actual} satisfies this precondition. */
  public boolean matches(long actual) {
    return generation.isEmpty() || generation.getAsLong() == actual;
  }
}
