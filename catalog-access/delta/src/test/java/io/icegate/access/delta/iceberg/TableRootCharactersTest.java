package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.expressions.Literal;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Captured;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A table whose root holds characters a URI escapes ({@code my table}, a literal {@code %20}, a
 * {@code #}) or carries as they are ({@code +}, a letter outside ASCII), given to the capture as
 * Kernel takes a path (a file system path, not a URI): its files are resolved under that root as
 * Kernel's scan resolves them, never refused as "outside the table location" nor looked for in
 * another directory ({@code pct%20t} is not {@code pct t}; {@code hash#t} is not {@code hash}), in
 * a first capture and in the incremental one after it.
 *
 * <p>Kernel's own writer mis-names data files under such a root (it reads its write directory's
 * URI as a path), so each table is written under a plain name and then moved: Delta's log names
 * its files relative to the root, so a moved table is the same table.
 */
class TableRootCharactersTest extends LocalLakeTest {

  @ParameterizedTest
  @ValueSource(strings = {"my table", "pct%20t", "hash#t", "plus+t", "uni\u00e9t"})
  void aRootIsResolvedAsKernelResolvesIt(String name) {
    delta.create("plain", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    lakes.append("plain", "EU", 1);
    delta.append(
        "plain",
        Map.of("region", Literal.ofString("a b/c%")),
        List.<Object[]>of(new Object[] {2L, "n2", DeltaVersionCaptureTest.TS + 2, "a b/c%"}));
    move("plain", name);
    String root = "file://" + lake.resolve(name).toAbsolutePath();

    Captured first = capture(root, name, null);
    assertThat(CapturedTables.rows(io, first.metadata()))
        .extracting(r -> r.get(0))
        .containsExactlyInAnyOrder(1L, 2L);

    move(name, "plain");
    lakes.append("plain", "US", 3);
    move("plain", name);
    Captured second = capture(root, name, first);
    assertThat(second.incremental()).isTrue();
    assertThat(CapturedTables.rows(io, second.metadata()))
        .extracting(r -> r.get(0))
        .containsExactlyInAnyOrder(1L, 2L, 3L);
  }

  Captured capture(String root, String name, Captured previous) {
    return DeltaVersionCapture.captureChanges(
        delta.engine(),
        root,
        Optional.empty(),
        previous == null ? null : previous.metadata(),
        previous == null ? Optional.empty() : Optional.of(previous.deltaState()),
        lakes.target(name.replaceAll("[^a-z]", "_"), "generated"));
  }

  void move(String from, String to) {
    try {
      Files.move(lake.resolve(from), lake.resolve(to));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
