package io.icegate.core.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourceCodecTest {
  private static final Instant T = Instant.parse("2026-11-29T20:00:00Z");

  private static Resource<Table> table(long generation, String location) {
    return new Resource<>("id-1", "acct", generation, 1, T, T,
        new Table("cat", List.of("ns"), "t", location, Map.of("k", "v")));
  }

  @Test
  void theSameBytesDecodeOnceAndOtherBytesDecodeAfresh() {
    ResourceCodec<Table> codec = new ResourceCodec<>(Table.class);
    byte[] first = codec.write(table(1, "file:/w/m1.json"));
    Resource<Table> decoded = codec.read(first);
    assertThat(decoded).isEqualTo(table(1, "file:/w/m1.json"));
    // Equal content in another array (as every store read returns): the decoded instance again.
    assertThat(codec.read(first.clone())).isSameAs(decoded);

    byte[] moved = codec.write(table(2, "file:/w/m2.json"));
    assertThat(codec.read(moved)).isEqualTo(table(2, "file:/w/m2.json"));
  }

  @Test
  void theCallersArrayIsNotKept() {
    ResourceCodec<Table> codec = new ResourceCodec<>(Table.class);
    byte[] bytes = codec.write(table(1, "file:/w/m1.json"));
    byte[] original = bytes.clone();
    Resource<Table> decoded = codec.read(bytes);
    // Scribbling over the array read must not corrupt what the codec remembers for its content.
    byte[] other = codec.write(table(1, "file:/w/m9.json"));
    System.arraycopy(other, 0, bytes, 0, Math.min(other.length, bytes.length));
    assertThat(codec.read(original)).isSameAs(decoded);
  }

  @Test
  void unreadableBytesStillFail() {
    ResourceCodec<Table> codec = new ResourceCodec<>(Table.class);
    byte[] garbage = "{not json".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> codec.read(garbage)).isInstanceOf(UncheckedIOException.class);
    assertThatThrownBy(() -> codec.read(garbage)).isInstanceOf(UncheckedIOException.class);
  }
}
