package io.icegate.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.network.OutboundAddressPolicy;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Flag parsing only; starting the server is covered by the gateway fixture's tests. */
class ServeCommandTest {

  private static GatewaySettings parse(String... args) {
    ServeCommand command = new ServeCommand();
    new CommandLine(command).parseArgs(args);
    return command.settings(null);
  }

  private static boolean permits(GatewaySettings settings, String literal) throws Exception {
    return settings.outboundPolicy().permits(InetAddress.getByName(literal));
  }

  @Test
  void outboundAddressFlagsBuildThePolicy() throws Exception {
    GatewaySettings plain = parse();
    assertThat(plain.outboundPolicy()).isEqualTo(OutboundAddressPolicy.defaults());

    GatewaySettings strict = parse("--deny-loopback-addresses", "--deny-private-addresses");
    assertThat(permits(strict, "127.0.0.1")).isFalse();
    assertThat(permits(strict, "192.168.1.1")).isFalse();
    assertThat(permits(strict, "169.254.169.254")).isFalse();
    assertThat(permits(strict, "8.8.8.8")).isTrue();

    GatewaySettings metadata = parse("--allow-metadata-addresses=true",
        "--deny-private-addresses=false");
    assertThat(permits(metadata, "169.254.169.254")).isTrue();
    assertThat(permits(metadata, "10.0.0.1")).isTrue();
  }
}
