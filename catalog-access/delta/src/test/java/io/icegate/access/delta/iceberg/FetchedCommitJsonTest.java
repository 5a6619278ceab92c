package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.engine.Engine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The next commit parsed from memory ({@link FetchedCommitJson}) against
 * Kernel's own reader of the same bytes, for commit files as other writers may leave them.
 */
class FetchedCommitJsonTest extends LocalLakeTest {

  CountedEngine counted;
  Engine engine;

  @BeforeEach
  void setUp() {
    counted = new CountedEngine(delta.engine());
    engine = WholeFileReads.engine(counted, this::readLocalWhole);
  }

  @ParameterizedTest
  @ValueSource(strings = {"crlf", "blankMiddle", "blankEnd", "noFinalNewline", "bom", "empty", "truncated", "cr"})
  void theCommitParsedFromMemoryReadsAsKernelReadsIt(String variant) throws IOException {
    long v = table("t" + variant, 1);
    long next = lakes.append("t" + variant, "APAC", 10);
    Path commit =
        lake.resolve("t" + variant).resolve("_delta_log").resolve(String.format("%020d.json", next));
    String text = Files.readString(commit);
    Function<String, String> rewrite =
        switch (variant) {
          case "crlf" -> t -> t.replace("\n", "\r\n");
          case "cr" -> t -> t.replace("\n", "\r");
          case "blankMiddle" -> t -> t.replaceFirst("\n", "\n\n");
          case "blankEnd" -> t -> t + "\n\n";
          case "noFinalNewline" -> t -> t.stripTrailing();
          case "bom" -> t -> "\uFEFF" + t;
          case "empty" -> t -> "";
          case "truncated" -> t -> t.substring(0, t.length() - 40);
          default -> throw new IllegalArgumentException(variant);
        };
    Files.writeString(commit, rewrite.apply(text), StandardCharsets.UTF_8);
    // Hadoop's local checksum companion would refuse the rewritten file: as if written without one
    Files.deleteIfExists(commit.resolveSibling("." + commit.getFileName() + ".crc"));
    String path = delta.location("t" + variant);

    String fromMemory = outcome(() -> CommitChanges.read(engine, path, v, Optional.empty()));
    String byKernel = outcome(() -> CommitChanges.read(counted, path, v, Optional.of(next)));
    assertThat(fromMemory).as(variant).isEqualTo(byKernel);
  }

  static String outcome(Supplier<Optional<CommitChanges>> read) {
    try {
      Optional<CommitChanges> c = read.get();
      return c.map(x -> "changes=" + x.changes() + " commits=" + x.commits() + " end=" + x.endVersion()
              + " ts=" + x.endTimestamp() + " protocol=" + x.protocol() + " metadata=" + x.metadata())
          .orElse("empty");
    } catch (RuntimeException e) {
      return "threw " + e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }
}
