package io.icegate.core.durability;

import io.icegate.core.model.ResourceSpec;
import io.icegate.core.repo.CreateOutcome;

/**
 * The answer of an idempotent create.
 *
 * @param outcome the recorded outcome: on a replay, exactly what the first successful attempt
 *     answered, even if the resource changed or was deleted since
 * @param replayed whether this answer came from a stored receipt
 */
public record IdempotentResult<S extends ResourceSpec>(CreateOutcome<S> outcome, boolean replayed) {}
