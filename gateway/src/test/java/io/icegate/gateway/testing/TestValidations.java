package io.icegate.gateway.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KvStore;
import io.icegate.overlay.store.OverlayStore;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.CapturePointers;
import io.icegate.overlay.store.validation.TableValidations;
import io.icegate.overlay.store.validation.ValidationError;
import io.icegate.overlay.store.validation.ValidationOutcome;
import io.icegate.overlay.store.validation.ValidationRecords;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Validation results published through core's {@link TableValidations}, standing in for the
 * validation step that follows capture in a reconcile (built separately), so gateway tests choose
 * each managed table's visibility.
 */
public final class TestValidations {
  private TestValidations() {}

  /**
   * Publishes a validation of the current capture of table {@code tableId} with one error per
   * file in {@code badFiles} (none: a clean validation, the table becomes visible).
   */
  public static void publish(KvStore store, String account, String tableId, String displayPath,
      String... badFiles) {
    Repositories repos = OverlayStore.repositories(store, Clock.systemUTC());
    long capture = store.read(tx -> new CapturePointers().get(tx, account, tableId))
        .map(CapturePointer::captureGeneration)
        .orElseThrow(() -> new IllegalStateException(displayPath + " is not captured"));
    List<ValidationError> errors = new ArrayList<>();
    for (String file : badFiles) {
      errors.add(new ValidationError(tableId, displayPath, "ICEBERG", file, "file is truncated"));
    }
    ValidationOutcome outcome = new TableValidations(repos).publish(account, tableId,
        store.read(tx -> new ValidationRecords().pointer(tx, account, tableId)), capture, errors,
        tx -> { });
    assertThat(outcome).isInstanceOf(ValidationOutcome.Published.class);
  }
}
