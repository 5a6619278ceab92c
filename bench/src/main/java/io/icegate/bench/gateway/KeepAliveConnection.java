package io.icegate.bench.gateway;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One HTTP/1.1 keep-alive connection sending the same GET again and again: a load generator that
 * costs far less CPU than {@code java.net.http} (which matters when the generator and the server
 * share two cores). Reads bodies framed by {@code Content-Length} or chunked encoding.
 */
final class KeepAliveConnection implements AutoCloseable {
  private final URI uri;
  private final byte[] request;
  private Socket socket;
  private InputStream in;
  private OutputStream out;

  KeepAliveConnection(URI uri, Map<String, String> headers) {
    this.uri = uri;
    StringBuilder text = new StringBuilder();
    String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    text.append("GET ").append(target).append(" HTTP/1.1\r\n");
    text.append("Host: ").append(uri.getHost()).append(':').append(uri.getPort()).append("\r\n");
    headers.forEach((k, v) -> text.append(k).append(": ").append(v).append("\r\n"));
    text.append("\r\n");
    this.request = text.toString().getBytes(StandardCharsets.US_ASCII);
  }

  /** Sends the request and reads the whole response; returns the status code. */
  int send() throws IOException {
    if (socket == null) {
      socket = new Socket(uri.getHost(), uri.getPort());
      socket.setTcpNoDelay(true);
      in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
      out = socket.getOutputStream();
    }
    out.write(request);
    out.flush();
    String status = line();
    int code = Integer.parseInt(status.substring(9, 12));
    long length = -1;
    boolean chunked = false;
    boolean close = false;
    String header;
    while (!(header = line()).isEmpty()) {
      String lower = header.toLowerCase(java.util.Locale.ROOT);
      if (lower.startsWith("content-length:")) {
        length = Long.parseLong(lower.substring(15).trim());
      } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
        chunked = true;
      } else if (lower.startsWith("connection:") && lower.contains("close")) {
        close = true;
      }
    }
    if (chunked) {
      long size;
      while ((size = Long.parseLong(line().split(";")[0].trim(), 16)) > 0) {
        skip(size);
        line();
      }
      while (!line().isEmpty()) {
        // trailers
      }
    } else if (length > 0) {
      skip(length);
    }
    if (close) {
      close();
    }
    return code;
  }

  private String line() throws IOException {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream(64);
    int b;
    while ((b = in.read()) != '\n') {
      if (b < 0) {
        throw new IOException("connection closed");
      }
      if (b != '\r') {
        buffer.write(b);
      }
    }
    return buffer.toString(StandardCharsets.US_ASCII);
  }

  private void skip(long n) throws IOException {
    long left = n;
    while (left > 0) {
      long skipped = in.skip(left);
      if (skipped <= 0) {
        if (in.read() < 0) {
          throw new IOException("connection closed in body");
        }
        skipped = 1;
      }
      left -= skipped;
    }
  }

  @Override
  public void close() throws IOException {
    if (socket != null) {
      socket.close();
      socket = null;
    }
  }
}
