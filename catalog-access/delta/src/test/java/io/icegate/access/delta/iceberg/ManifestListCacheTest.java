package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Captured;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Captures through a {@link ManifestListCache} read the manifest lists this process wrote from
 * memory and every other one from the store, and leave exactly what captures without it leave.
 * Two caches over one warehouse stand for two gateways over one store. The store is the local file
 * system through Iceberg's Hadoop FileIO, with the manifest lists it opens counted (a count on a
 * real FileIO, nothing stubbed).
 */
class ManifestListCacheTest {

  @TempDir Path lake;
  @TempDir Path warehouse;
  LocalCaptures lakes;
  KernelTableWriter delta;
  FileIO store;
  List<String> listsRead;

  @BeforeEach
  void setUp() {
    lakes = new LocalCaptures(lake, warehouse);
    delta = lakes.delta();
    listsRead = new ArrayList<>();
    store = new ListReadsCounted(lakes.io(), listsRead);
  }

  @Test
  void aCaptureReadsTheListsItsGatewayWroteFromMemoryAndLeavesTheSameTable() {
    ManifestListCache cache = new ManifestListCache();
    delta.create("orders", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    append("orders", "EU", 1);
    append("orders", "US", 2);
    Captured first = capture(cache, "orders", null);
    String firstList = first.metadata().currentSnapshot().manifestListLocation();
    assertThat(cache.holds(firstList)).isTrue();

    append("orders", "EU", 3);
    Captured second = capture(cache, "orders", first.metadata());
    delta.removeFiles("orders", p -> p.contains("region=US"));
    Captured third = capture(cache, "orders", second.metadata());

    assertThat(second.incremental()).isTrue();
    assertThat(third.incremental()).isTrue();
    assertThat(listsRead).as("manifest lists opened in the store").isEmpty();
    Captured uncached = capture(null, "orders", null);
    assertThat(CapturedTables.liveState(store, third.metadata()))
        .hasSize(2)
        .isEqualTo(CapturedTables.liveState(store, uncached.metadata()));
    // what is served is what the store holds
    String list = third.metadata().currentSnapshot().manifestListLocation();
    assertThat(bytes(cache.around(store).newInputFile(list))).isEqualTo(bytes(store.newInputFile(list)));
  }

  @Test
  void aListAnotherGatewayWroteIsReadFromTheStore() {
    ManifestListCache one = new ManifestListCache();
    ManifestListCache other = new ManifestListCache();
    delta.create("orders", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    append("orders", "EU", 1);
    Captured first = capture(one, "orders", null);

    append("orders", "US", 2);
    Captured byOther = capture(other, "orders", first.metadata());
    assertThat(listsRead).containsExactly(first.metadata().currentSnapshot().manifestListLocation());

    listsRead.clear();
    append("orders", "EU", 3);
    Captured byOne = capture(one, "orders", byOther.metadata());
    assertThat(listsRead).containsExactly(byOther.metadata().currentSnapshot().manifestListLocation());
    assertThat(CapturedTables.liveState(store, byOne.metadata()))
        .hasSize(3)
        .isEqualTo(CapturedTables.liveState(store, capture(null, "orders", null).metadata()));
  }

  @Test
  void aDeletedListLeavesTheCacheAndTheBoundEvictsTheLeastRecentlyUsed() throws IOException {
    ManifestListCache cache = new ManifestListCache(8_000); // lists of up to 1,000 bytes kept
    FileIO io = cache.around(store);
    List<String> lists = new ArrayList<>();
    for (int i = 1; i <= 8; i++) {
      lists.add(write(io, "snap-" + i + "-1-x.avro", 1_000));
    }
    String manifest = write(io, "m-1.avro", 100); // a manifest, not a list: never kept
    assertThat(cache.bytes()).isEqualTo(8_000);
    assertThat(lists).allMatch(cache::holds);
    assertThat(cache.holds(manifest)).isFalse();

    io.newInputFile(lists.get(0)).newStream().close(); // now the most recently used
    String ninth = write(io, "snap-9-1-x.avro", 1_000);
    assertThat(cache.holds(lists.get(1))).isFalse();
    assertThat(cache.holds(lists.get(0))).isTrue();
    assertThat(cache.holds(ninth)).isTrue();
    assertThat(cache.bytes()).isEqualTo(8_000);

    String large = write(io, "snap-10-1-x.avro", 1_001); // over an eighth of the bound
    assertThat(cache.holds(large)).isFalse();
    assertThat(cache.bytes()).isEqualTo(8_000);

    io.deleteFile(lists.get(0));
    assertThat(cache.holds(lists.get(0))).isFalse();
    assertThat(cache.bytes()).isEqualTo(7_000);
    assertThatThrownBy(() -> io.newInputFile(lists.get(0)).newStream())
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void aBoundThatIsNotPositiveIsRefused() {
    assertThatThrownBy(() -> new ManifestListCache(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxBytes");
  }

  private Captured capture(ManifestListCache cache, String table, TableMetadata previous) {
    String generated = previous == null && cache == null ? table + "-uncached" : table;
    return lakes.capture(table, previous, generated, cache == null ? store : cache.around(store));
  }

  private void append(String table, String region, long id) {
    lakes.append(table, region, id);
  }

  /** Writes {@code size} bytes under the warehouse; returns the location the FileIO gives it. */
  private String write(FileIO io, String name, int size) throws IOException {
    OutputFile file = io.newOutputFile(warehouse.resolve(name).toUri().toString());
    try (var out = file.create()) {
      out.write(new byte[size]);
    }
    return file.location();
  }

  private static byte[] bytes(InputFile file) {
    try (InputStream in = file.newStream()) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A real FileIO whose opened manifest lists are recorded. */
  private static final class ListReadsCounted extends ForwardingFileIO {
    private final List<String> reads;

    ListReadsCounted(FileIO io, List<String> reads) {
      super(io);
      this.reads = reads;
    }

    @Override
    public InputFile newInputFile(String path) {
      if (ManifestListCache.isManifestList(path)) {
        reads.add(path);
      }
      return super.newInputFile(path);
    }

    @Override
    public InputFile newInputFile(String path, long length) {
      if (ManifestListCache.isManifestList(path)) {
        reads.add(path);
      }
      return super.newInputFile(path, length);
    }
  }
}
