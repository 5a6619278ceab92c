package io.icegate.gateway.server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpCompliance;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.internal.HttpConnection;

/**
 * HTTP/1.1 connections that remember the raw target of the request they are reading. When Jetty
 * rejects a target itself (a bad percent escape), the request its error handler gets carries a
 * placeholder URI, so {@link JsonErrorHandler} asks the connection which surface the client
 * addressed. HTTP/1.1 reads one request at a time per connection, so the last target is the
 * rejected one.
 *
 * <p>Built on Jetty's {@code internal.HttpConnection}, whose {@code newHttpStream} hook receives
 * the target before it is parsed, and on its parser, whose input shows the start of a target too
 * long to parse (414); {@link #newConnection} and the parser's set-up repeat what Jetty's own
 * factory and connection do (Jetty 12.1). Should those hooks change, the error format falls back
 * to Iceberg's, never worse.
 */
final class TargetRecordingConnectionFactory extends HttpConnectionFactory {

  TargetRecordingConnectionFactory(HttpConfiguration config) {
    super(config);
  }

  @Override
  public Connection newConnection(Connector connector, EndPoint endPoint) {
    Recording connection = new Recording(getHttpConfiguration(), connector, endPoint);
    connection.setTransferEncodingChunkMaxLength(getTransferEncodingChunkMaxLength());
    return configure(connection, connector, endPoint);
  }

  /** The raw target of the request being read on {@code request}'s connection, if known. */
  static String rawTarget(Request request) {
    return request.getConnectionMetaData().getConnection() instanceof Recording recording
        ? recording.target
        : null;
  }

  private static final String BAD_MESSAGE = "/badMessage";

  private static final class Recording extends HttpConnection {
    /** What is noted of a target too long to read: only whether it addressed the admin API. */
    private static final String ADMIN = "/admin";
    private static final byte[] ADMIN_BYTES = ADMIN.getBytes(StandardCharsets.US_ASCII);

    private volatile String target;
    /**
     * The connection's request handler, kept when the super constructor creates it (before this
     * class's initialisers would run, so it has none).
     */
    private RequestHandler handler;

    Recording(HttpConfiguration config, Connector connector, EndPoint endPoint) {
      super(config, connector, endPoint);
    }

    @Override
    protected RequestHandler newRequestHandler() {
      RequestHandler created = super.newRequestHandler();
      handler = created;
      return created;
    }

    /**
     * Jetty's parser (configured as Jetty's own factory does), which also looks at the start of
     * each request's target in the bytes it is about to parse: a target too long for the parser
     * (414) never reaches {@link #newHttpStream}, but its start says which surface it addressed.
     * Only that is noted, without allocating, since it runs for every request.
     */
    @Override
    protected HttpParser newHttpParser(HttpCompliance compliance) {
      HttpConfiguration config = getHttpConfiguration();
      HttpParser parser = new HttpParser(handler, config.getRequestHeaderSize(), compliance) {
        @Override
        public boolean parseNext(ByteBuffer buffer) {
          if (isState(State.START) && buffer.hasRemaining()) {
            target = addressesAdmin(buffer) ? ADMIN : null;
          }
          return super.parseNext(buffer);
        }
      };
      parser.setHeaderCacheSize(config.getHeaderCacheSize());
      parser.setHeaderCacheCaseSensitive(config.isHeaderCacheCaseSensitive());
      return parser;
    }

    /** Whether the request line at {@code buffer}'s position has a target under /admin. */
    private static boolean addressesAdmin(ByteBuffer buffer) {
      int at = buffer.position();
      int end = buffer.limit();
      while (at < end && buffer.get(at) != ' ') {
        at++;
      }
      at++;
      for (byte b : ADMIN_BYTES) {
        if (at >= end || buffer.get(at++) != b) {
          return false;
        }
      }
      return at >= end || buffer.get(at) == '/' || buffer.get(at) == '?' || buffer.get(at) == ' ';
    }
  }
}
