package io.icegate.gateway.server;

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
 * the target before it is parsed; {@link #newConnection} repeats what Jetty's own factory does
 * (Jetty 12.1). Should that hook change, the error format falls back to Iceberg's, never worse.
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
    private volatile String target;

    Recording(HttpConfiguration config, Connector connector, EndPoint endPoint) {
      super(config, connector, endPoint);
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
