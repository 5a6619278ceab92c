package io.icegate.gateway.fileio;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogStorage;
import io.icegate.core.model.Resource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.PositionOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The requests the Catalog's S3FileIO sends when the gateway writes a file (a metadata file, a
 * manifest, a manifest list): a PutObject goes out with its body at once, without the {@code
 * Expect: 100-continue} handshake the AWS SDK asks Apache's client for, which costs one more
 * round trip per file; a Catalog property turns the handshake back on. Real parts: Iceberg's
 * S3FileIO as {@link CatalogFileIO} builds it, against an HTTP listener on loopback that records
 * each request's head and answers as S3 does (s3proxy cannot show the headers it received).
 */
class CatalogFileIOHeadersTest {

  @BeforeAll
  static void checksums() {
    ObjectStoreFixture.useChecksumsOnlyWhenRequired();
  }

  @Test
  void aWriteSendsItsBodyWithoutWaitingForContinue() throws Exception {
    List<String> head = putThrough(Map.of());
    assertThat(head.get(0)).startsWith("PUT /lake/warehouse/ns/t/metadata/00000.metadata.json");
    assertThat(head).noneMatch(line -> line.toLowerCase(Locale.ROOT).startsWith("expect:"));
  }

  @Test
  void aCatalogPropertyTurnsTheHandshakeBackOn() throws Exception {
    List<String> head = putThrough(Map.of(CatalogFileIO.EXPECT_CONTINUE, "true"));
    assertThat(head).anyMatch(line -> line.equalsIgnoreCase("Expect: 100-continue"));
  }

  /** Writes one small file through a Catalog with {@code properties}; the PUT's request head. */
  private static List<String> putThrough(Map<String, String> properties) throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
      CompletableFuture<List<String>> received =
          CompletableFuture.supplyAsync(() -> answerOnePut(listener));
      Instant now = Instant.now();
      Resource<Catalog> catalog = new Resource<>("cat-id", "acc", 1, 1, now, now,
          new Catalog("lake", "s3://lake/warehouse", properties, new CatalogStorage(
              new CatalogStorage.S3("http://127.0.0.1:" + listener.getLocalPort(), "us-east-1",
                  true, "key-id", 1))));
      FileIO io = new CatalogFileIO((id, generation) -> Optional.of("secret-0123456789"))
          .forCatalog(catalog);
      try (PositionOutputStream out = io
          .newOutputFile("s3://lake/warehouse/ns/t/metadata/00000.metadata.json")
          .createOrOverwrite()) {
        out.write(new byte[6_000]);
      } finally {
        io.close();
      }
      return received.get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * Reads one request's head and body (a 100 Continue first when the client asked for one) and
   * answers 200 with an ETag, as S3 answers a PutObject.
   */
  private static List<String> answerOnePut(ServerSocket listener) {
    try (Socket socket = listener.accept()) {
      socket.setSoTimeout(20_000);
      InputStream in = socket.getInputStream();
      OutputStream out = socket.getOutputStream();
      List<String> head = new ArrayList<>();
      for (String line = readLine(in); !line.isEmpty(); line = readLine(in)) {
        head.add(line);
      }
      long length = head.stream()
          .filter(l -> l.toLowerCase(Locale.ROOT).startsWith("content-length:"))
          .mapToLong(l -> Long.parseLong(l.substring(l.indexOf(':') + 1).trim()))
          .findFirst().orElse(0);
      if (head.stream().anyMatch(l -> l.equalsIgnoreCase("Expect: 100-continue"))) {
        out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
      }
      in.readNBytes((int) length);
      out.write(("HTTP/1.1 200 OK\r\nETag: \"0\"\r\nContent-Length: 0\r\nConnection: close"
          + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      return head;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        throw new IOException("connection closed inside a request head");
      }
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.US_ASCII);
  }
}
