package io.icegate.gateway.server;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;

/**
 * The gateway's listening socket, bound first thing at start: before the data dir is locked, the
 * store opened or the bootstrap token minted, so that a port already in use (the commonest start
 * mistake: a second {@code icegate serve}) is refused with nothing created. The bound channel is
 * then handed to Jetty ({@link HttpServer#start}), so no other process can take the port between
 * this check and the server's start.
 */
public final class ListeningPort {
  private ListeningPort() {}

  /**
   * A channel bound to {@code host:port} (port 0: any free one), listening.
   *
   * @throws UnavailableException when the address cannot be bound: the port is in use, or the host
   *     is no address of this machine or does not resolve
   * @throws IOException when the channel cannot be opened at all
   */
  public static ServerSocketChannel bind(String host, int port) throws IOException {
    ServerSocketChannel channel = ServerSocketChannel.open();
    try {
      // as Jetty sets it on the channels it opens itself: a restart may bind while connections of
      // the previous process linger in TIME_WAIT (a live listener still refuses the bind)
      channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      channel.bind(new InetSocketAddress(host, port), 0);
      return channel;
    } catch (BindException e) {
      channel.close();
      String why = e.getMessage() != null && e.getMessage().contains("in use")
          ? "the port is in use (another icegate server or another program listens there);"
              + " stop it or choose another --port (ICEGATE_PORT)"
          : (e.getMessage() == null ? "the address cannot be bound" : e.getMessage())
              + "; --bind (ICEGATE_BIND) must be an address of this machine";
      throw new UnavailableException("cannot listen on " + host + " port " + port + ": " + why);
    } catch (IllegalArgumentException e) { // UnresolvedAddressException too
      channel.close();
      throw new UnavailableException("cannot listen on " + host + " port " + port
          + ": --bind (ICEGATE_BIND) is no address this machine resolves, or the port is not"
          + " 0 to 65535");
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** The address cannot be listened on; nothing was opened or written. */
  public static final class UnavailableException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    UnavailableException(String message) {
      super(message);
    }
  }
}
