package io.icegate.gateway.server;

import java.nio.ByteBuffer;
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
    /** How much of a target's start is kept when it is read before its request line ends. */
    private static final int TARGET_START = 256;

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
     * Jetty's parser (configured as Jetty's own factory does), which also notes the start of each
     * request's target from the bytes it is about to parse: a target too long for the parser
     * (414) never reaches {@link #newHttpStream}, but its start says which surface it addressed.
     */
    @Override
    protected HttpParser newHttpParser(HttpCompliance compliance) {
      HttpConfiguration config = getHttpConfiguration();
      HttpParser parser = new HttpParser(handler, config.getRequestHeaderSize(), compliance) {
        @Override
        public boolean parseNext(ByteBuffer buffer) {
          if (isState(State.START)) {
            String start = targetStart(buffer);
            if (start != null) {
              target = start;
            }
          }
          return super.parseNext(buffer);
        }
      };
      parser.setHeaderCacheSize(config.getHeaderCacheSize());
      parser.setHeaderCacheCaseSensitive(config.isHeaderCacheCaseSensitive());
      return parser;
    }

    /** The start of the target in a request line at {@code buffer}'s position; null: none yet. */
    private static String targetStart(ByteBuffer buffer) {
      int at = buffer.position();
      int end = buffer.limit();
      while (at < end && buffer.get(at) != ' ') {
        at++;
      }
      StringBuilder start = new StringBuilder();
      for (at++; at < end && buffer.get(at) != ' ' && start.length() < TARGET_START; at++) {
        start.append((char) (buffer.get(at) & 0xff));
      }
      return start.length() == 0 ? null : start.toString();
    }

    @Override
    protected HttpStreamOverHTTP1 newHttpStream(String method, String uri, HttpVersion version) {
      // Jetty answers a refused request on a stream of its own with this placeholder target;
      // the client's target is the one read before it.
      if (!BAD_MESSAGE.equals(uri)) {
        target = uri;
      }
      return super.newHttpStream(method, uri, version);
    }
  }
}
