package io.icegate.bench.gateway;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * A closed-loop HTTP/1.1 load generator: {@code connections} keep-alive connections, each sending
 * the same GET again as soon as its previous answer is complete, all driven by one thread on one
 * {@link Selector}. On two cores shared with the server under test, the generator's own CPU is
 * part of what is measured; one selector thread costs a fraction of a thread per connection
 * blocking on its socket (each answer there costs a park, a wake-up and a context switch).
 * Answers may be framed by {@code Content-Length} or chunked encoding; bodies are dropped.
 */
final class SelectorLoad {
  private static final int BUFFER = 256 * 1024;

  /** What a run measured: answers, failed ones (non-200 or broken) and each answer's latency. */
  record Outcome(long requests, long errors, double seconds, long[] latenciesNanos) {}

  private SelectorLoad() {}

  /**
   * Runs for {@code seconds}; a connection that breaks or is closed by the server counts an error
   * and is opened again.
   */
  static Outcome run(URI uri, Map<String, String> headers, int connections, int seconds)
      throws IOException {
    byte[] request = request(uri, headers);
    InetSocketAddress address = new InetSocketAddress(uri.getHost(), uri.getPort());
    long[] latencies = new long[1 << 22];
    int count = 0;
    long errors = 0;
    try (Selector selector = Selector.open()) {
      for (int i = 0; i < connections; i++) {
        open(selector, address).send(request);
      }
      long started = System.nanoTime();
      long end = started + seconds * 1_000_000_000L;
      while (System.nanoTime() < end) {
        selector.select(100);
        Iterator<SelectionKey> ready = selector.selectedKeys().iterator();
        while (ready.hasNext()) {
          SelectionKey key = ready.next();
          ready.remove();
          Connection connection = (Connection) key.attachment();
          int status;
          try {
            status = connection.read();
          } catch (IOException | RuntimeException e) {
            status = -1;
          }
          if (status == 0) {
            continue; // answer not complete yet
          }
          long now = System.nanoTime();
          if (count < latencies.length) {
            latencies[count++] = now - connection.sentAt;
          }
          if (status != 200) {
            errors++;
          }
          if (now >= end) {
            continue;
          }
          try {
            if (status < 0 || connection.closeAfter) {
              connection.close();
              connection = open(selector, address);
            }
            connection.send(request);
          } catch (IOException e) {
            errors++;
          }
        }
      }
      double elapsed = (System.nanoTime() - started) / 1e9;
      for (SelectionKey key : selector.keys()) {
        ((Connection) key.attachment()).close();
      }
      long[] measured = Arrays.copyOf(latencies, count);
      Arrays.sort(measured);
      return new Outcome(count, errors, elapsed, measured);
    }
  }

  private static byte[] request(URI uri, Map<String, String> headers) {
    StringBuilder text = new StringBuilder();
    String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    text.append("GET ").append(target).append(" HTTP/1.1\r\n");
    text.append("Host: ").append(uri.getHost()).append(':').append(uri.getPort()).append("\r\n");
    headers.forEach((k, v) -> text.append(k).append(": ").append(v).append("\r\n"));
    text.append("\r\n");
    return text.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static Connection open(Selector selector, InetSocketAddress address)
      throws IOException {
    SocketChannel channel = SocketChannel.open(address);
    channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
    channel.configureBlocking(false);
    Connection connection = new Connection(channel);
    channel.register(selector, SelectionKey.OP_READ, connection);
    return connection;
  }

  /** One connection and the answer it is reading. */
  private static final class Connection {
    private final SocketChannel channel;
    private final ByteBuffer in = ByteBuffer.allocate(BUFFER);
    private long sentAt;
    private boolean closeAfter;

    Connection(SocketChannel channel) {
      this.channel = channel;
    }

    void send(byte[] request) throws IOException {
      in.clear();
      closeAfter = false;
      sentAt = System.nanoTime();
      ByteBuffer out = ByteBuffer.wrap(request);
      while (out.hasRemaining()) {
        channel.write(out); // a few hundred bytes: the socket buffer always takes them at once
      }
    }

    /**
     * Reads what arrived; returns the status code once the whole answer is in, 0 before that.
     *
     * @throws IOException when the server closed the connection before the answer was complete
     */
    int read() throws IOException {
      if (channel.read(in) < 0) {
        throw new IOException("connection closed");
      }
      return complete();
    }

    /** The status when the buffered bytes hold a complete answer, else 0. */
    private int complete() throws IOException {
      byte[] b = in.array();
      int length = in.position();
      int headerEnd = indexOf(b, 0, length, "\r\n\r\n");
      if (headerEnd < 0) {
        return 0;
      }
      String head = new String(b, 0, headerEnd, StandardCharsets.US_ASCII);
      int status = Integer.parseInt(head.substring(9, 12));
      long contentLength = -1;
      boolean chunked = false;
      for (String line : head.split("\r\n")) {
        String lower = line.toLowerCase(Locale.ROOT);
        if (lower.startsWith("content-length:")) {
          contentLength = Long.parseLong(lower.substring(15).trim());
        } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
          chunked = true;
        } else if (lower.startsWith("connection:") && lower.contains("close")) {
          closeAfter = true;
        }
      }
      int body = headerEnd + 4;
      boolean done = chunked ? chunkedComplete(b, body, length) : length - body >= contentLength;
      if (!done && length == b.length) {
        throw new IOException("an answer larger than " + BUFFER + " bytes");
      }
      return done ? status : 0;
    }

    /** Whether {@code b[from, to)} holds every chunk up to the last one and the empty trailer. */
    private static boolean chunkedComplete(byte[] b, int from, int to) {
      int at = from;
      while (true) {
        int lineEnd = indexOf(b, at, to, "\r\n");
        if (lineEnd < 0) {
          return false;
        }
        String size = new String(b, at, lineEnd - at, StandardCharsets.US_ASCII).split(";")[0];
        long n = Long.parseLong(size.trim(), 16);
        at = lineEnd + 2;
        if (n == 0) {
          return indexOf(b, at, to, "\r\n") == at || indexOf(b, at, to, "\r\n\r\n") >= 0;
        }
        at += n + 2;
        if (at > to) {
          return false;
        }
      }
    }

    private static int indexOf(byte[] b, int from, int to, String what) {
      outer:
      for (int i = from; i <= to - what.length(); i++) {
        for (int j = 0; j < what.length(); j++) {
          if (b[i + j] != what.charAt(j)) {
            continue outer;
          }
        }
        return i;
      }
      return -1;
    }

    void close() {
      try {
        channel.close();
      } catch (IOException e) {
        // closing a broken connection: nothing to do
      }
    }
  }
}
