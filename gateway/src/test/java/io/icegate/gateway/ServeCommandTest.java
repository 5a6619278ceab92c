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

  /** The duration flags take the forms the CLI and the admin API take (one parser). */
  @Test
  void durationFlagsTakeTheFormsTheCliTakes() {
    assertThat(parse().maxTokenLifetime()).isNull();
    assertThat(parse().minRefreshInterval()).isEqualTo(java.time.Duration.ofSeconds(5));
    java.util.Map<String, java.time.Duration> forms = java.util.Map.of("P90D",
        java.time.Duration.ofDays(90), "90d", java.time.Duration.ofDays(90), "P1W",
        java.time.Duration.ofDays(7), "2w", java.time.Duration.ofDays(14), "5m",
        java.time.Duration.ofMinutes(5), "PT12H", java.time.Duration.ofHours(12));
    forms.forEach((text, length) -> {
      assertThat(parse("--max-token-lifetime", text).maxTokenLifetime()).as(text)
          .isEqualTo(length);
      assertThat(parse("--min-refresh-interval", text).minRefreshInterval()).as(text)
          .isEqualTo(length);
    });
    for (String bad : java.util.List.of("90", "P1M", "P-1DT48H")) {
      org.assertj.core.api.Assertions.assertThatThrownBy(
          () -> parse("--max-token-lifetime", bad)).as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("--max-token-lifetime");
    }
    // below the floor: named as the flag, with the value given
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> parse("--min-refresh-interval", "1s"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--min-refresh-interval: must be at least PT5S, got PT1S");
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

  @Test
  void theEnvironmentIsReadIntoTheSettingsOnce() {
    ServeCommand command = new ServeCommand();
    new CommandLine(command).parseArgs();
    GatewaySettings settings = command.settingsFrom(java.util.Map.of(
        "ICEGATE_BOOTSTRAP_TOKEN", "igt_boot", "ICEGATE_MASTER_KEY", "c2VjcmV0LWtleS1ieXRlcw==",
        "ICEGATE_MASTER_KEY_FILE", "/keys/master.key", "ICEGATE_RECONCILE_CONCURRENCY", "3"));
    assertThat(settings.bootstrapToken()).isEqualTo("igt_boot");
    assertThat(settings.masterKey().value()).isEqualTo("c2VjcmV0LWtleS1ieXRlcw==");
    assertThat(settings.masterKey().file()).isEqualTo(java.nio.file.Path.of("/keys/master.key"));
    assertThat(settings.reconcile().concurrency()).isEqualTo(3);
    assertThat(settings.toString()).doesNotContain("c2VjcmV0LWtleS1ieXRlcw==")
        .doesNotContain("igt_boot");

    GatewaySettings unset = command.settingsFrom(java.util.Map.of());
    assertThat(unset.masterKey()).isEqualTo(MasterKeySource.NONE);
    assertThat(unset.reconcile())
        .isEqualTo(io.icegate.overlay.reconcile.ReconcileSettings.DEFAULT);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> command.settingsFrom(
            java.util.Map.of("ICEGATE_RECONCILE_CONCURRENCY", "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ICEGATE_RECONCILE_CONCURRENCY");
  }

  @Test
  void anUnusableSettingIsOneLineNamingItNeverItsValue(@org.junit.jupiter.api.io.TempDir
      java.nio.file.Path tmp) throws Exception {
    java.nio.file.Path keyDir = java.nio.file.Files.createDirectory(tmp.resolve("keys"));
    java.util.Map<java.util.Map<String, String>, String> cases = java.util.Map.of(
        java.util.Map.of("ICEGATE_MASTER_KEY", "notbase64!!"), "is not base64",
        java.util.Map.of("ICEGATE_MASTER_KEY", "c2hvcnQ="), "must be 32 bytes",
        java.util.Map.of("ICEGATE_MASTER_KEY", ""), "set but empty",
        java.util.Map.of("ICEGATE_MASTER_KEY_FILE", ""), "path is empty",
        java.util.Map.of("ICEGATE_MASTER_KEY_FILE", keyDir.toString()), "is not a regular file",
        java.util.Map.of("ICEGATE_RECONCILE_CONCURRENCY", "abc"), "from 1 to 256");
    for (var entry : cases.entrySet()) {
      ServeCommand command = new ServeCommand();
      java.io.StringWriter err = new java.io.StringWriter();
      CommandLine commandLine = new CommandLine(command);
      commandLine.setErr(new java.io.PrintWriter(err, true));
      commandLine.parseArgs("--port", "0", "--data-dir", tmp.resolve("data").toString());
      assertThat(command.serve(entry.getKey())).as(entry.getKey().toString()).isEqualTo(1);
      assertThat(err.toString()).startsWith("icegate: ").contains(entry.getValue())
          .doesNotContain("notbase64!!").doesNotContain("\tat ");
      assertThat(err.toString().strip().lines()).hasSize(1);
    }
  }

  @Test
  void anUnusableRefreshFloorIsOneLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
      throws Exception {
    for (String floor : java.util.List.of("PT1S", "-PT5S", "P100000000000000D", "P1M",
        "P-1DT48H", "soon")) {
      ServeCommand command = new ServeCommand();
      java.io.StringWriter err = new java.io.StringWriter();
      CommandLine commandLine = new CommandLine(command);
      commandLine.setErr(new java.io.PrintWriter(err, true));
      commandLine.parseArgs("--port", "0", "--data-dir", tmp.resolve("data").toString(),
          "--min-refresh-interval", floor);
      assertThat(command.serve(java.util.Map.of())).as(floor).isEqualTo(1);
      assertThat(err.toString()).startsWith("icegate: ").contains("--min-refresh-interval")
          .doesNotContain("\tat ");
      assertThat(err.toString().strip().lines()).hasSize(1);
    }
  }
}
