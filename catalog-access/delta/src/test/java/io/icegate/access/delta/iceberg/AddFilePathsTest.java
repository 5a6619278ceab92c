package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.internal.fs.Path;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The shortcut for plain log paths must name every file exactly as Delta Kernel's own resolution
 * (the one {@code InternalScanFileUtils.getAddFileStatus} applies) names it, and everything else
 * must go through Kernel's resolution.
 */
class AddFilePathsTest {

  static final List<String> ROOTS =
      List.of(
          "file:/tmp/lake/orders",
          "file:///tmp/lake/orders",
          "s3://bucket/lake/orders",
          "s3a://bucket/orders",
          "s3://bucket",
          "abfss://container@account.dfs.core.windows.net/t");

  static final List<String> PATHS =
      List.of(
          "part-00000-8c5f3a2e-1f5b-4f4e-9c1d-0d6a0c4e2b11.c000.snappy.parquet",
          "region=EU/part-00000-8c5f3a2e.c000.snappy.parquet",
          "a=1/b=x_y-z/part.parquet",
          "region=p%20000/part.parquet",
          "region=a b/part.parquet",
          "region=%C3%BC/part.parquet",
          "region=ü/part.parquet",
          "./part.parquet",
          "x/../part.parquet",
          "x//part.parquet",
          "/tmp/lake/orders/part.parquet",
          "s3://other/orders/part.parquet",
          "file:/tmp/other/part.parquet",
          "x/part.parquet/",
          "a+b/part~1.parquet",
          "deletion_vector_1.bin",
          ".hidden/part.parquet",
          "..x/part.parquet");

  @Test
  void everyPathIsNamedAsKernelNamesIt() {
    for (String root : ROOTS) {
      AddFilePaths paths = new AddFilePaths(root);
      for (String path : PATHS) {
        String r = root;
        assertThat(outcome(() -> paths.absolute(path)))
            .as(root + " + " + path)
            .isEqualTo(outcome(() -> kernel(r, path)));
      }
    }
  }

  @Test
  void randomPathsOverTheCharactersNearThePlainSetAgreeWithKernel() {
    String alphabet = "aZ09-_.=/%+~:@ ü";
    Random random = new Random(26);
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      StringBuilder path = new StringBuilder();
      int length = 1 + random.nextInt(12);
      for (int j = 0; j < length; j++) {
        path.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      paths.add(path.toString());
    }
    AddFilePaths resolver = new AddFilePaths("s3://bucket/lake/orders");
    int plain = 0;
    for (String path : paths) {
      String expected;
      try {
        expected = kernel("s3://bucket/lake/orders", path);
      } catch (RuntimeException e) {
        // Kernel refuses it (not a URI): the shortcut must not take it either
        assertThat(AddFilePaths.plain(path)).as(path).isFalse();
        continue;
      }
      plain += AddFilePaths.plain(path) ? 1 : 0;
      assertThat(resolver.absolute(path)).as(path).isEqualTo(expected);
    }
    assertThat(plain).as("paths the shortcut took").isGreaterThan(1_000);
  }

  @Test
  void onlyPlainRelativePathsTakeTheShortcut() {
    assertThat(AddFilePaths.plain("region=EU/part-0.c000.snappy.parquet")).isTrue();
    assertThat(AddFilePaths.plain("region=a%20b/part.parquet")).isFalse();
    assertThat(AddFilePaths.plain("s3://bucket/part.parquet")).isFalse();
    assertThat(AddFilePaths.plain("/part.parquet")).isFalse();
    assertThat(AddFilePaths.plain("x//part.parquet")).isFalse();
    assertThat(AddFilePaths.plain("../part.parquet")).isFalse();
    assertThat(AddFilePaths.plain("")).isFalse();
  }

  /** The name, or the class of the exception (Kernel refuses what is not a URI). */
  static String outcome(java.util.function.Supplier<String> resolution) {
    try {
      return resolution.get();
    } catch (RuntimeException e) {
      return e.getClass().getName();
    }
  }

  /** Kernel's resolution, as its scan applies it to an add action's path. */
  static String kernel(String root, String path) {
    return new Path(new Path(URI.create(root)), new Path(URI.create(path))).toString();
  }
}
