package io.icegate.cli.path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.cli.CliException;
import io.icegate.cli.ExitCode;
import java.util.List;
import org.junit.jupiter.api.Test;

class PathSyntaxTest {

  @Test
  void plainSegmentsSplitOnDots() {
    assertThat(PathSyntax.parse("crm")).containsExactly("crm");
    assertThat(PathSyntax.parse("sales.eu.raw")).containsExactly("sales", "eu", "raw");
  }

  @Test
  void quotedSegmentKeepsItsDots() {
    assertThat(PathSyntax.parse("sales.\"q1.2026\".raw"))
        .containsExactly("sales", "q1.2026", "raw");
    assertThat(PathSyntax.parse("\"a.b\"")).containsExactly("a.b");
    assertThat(PathSyntax.parse("\"a.b\".\"c.d\"")).containsExactly("a.b", "c.d");
  }

  @Test
  void doubledQuoteInsideQuotesIsOneQuote() {
    assertThat(PathSyntax.parse("\"say \"\"hi\"\"\".x")).containsExactly("say \"hi\"", "x");
  }

  @Test
  void spacesAndOtherCharactersAreKeptAsTheyAre() {
    assertThat(PathSyntax.parse(" a .b-c/d")).containsExactly(" a ", "b-c/d");
  }

  @Test
  void emptyPathAndEmptySegmentsAreRefusedWithTheirPosition() {
    assertUsage("", "namespace path '' is empty");
    assertUsage("a..b", "empty segment at character 3");
    assertUsage(".a", "empty segment at character 1");
    assertUsage("a.", "empty segment at character 3 (trailing dot)");
    assertUsage("a.\"\"", "empty segment at character 3");
  }

  @Test
  void unterminatedQuoteIsRefused() {
    assertUsage("sales.\"q1.2026", "unterminated quote opened at character 7");
    assertUsage("\"", "unterminated quote opened at character 1");
  }

  @Test
  void strayQuotesAreRefused() {
    assertUsage("\"a\"b", "'b' at character 4 after a closing quote");
    assertUsage("ab\"c\"", "quote inside an unquoted segment at character 3");
  }

  @Test
  void formatQuotesOnlyWhereNeededAndParsesBack() {
    List<String> segments = List.of("sales", "q1.2026", "say \"hi\"", "raw");
    String text = PathSyntax.format(segments);
    assertThat(text).isEqualTo("sales.\"q1.2026\".\"say \"\"hi\"\"\".raw");
    assertThat(PathSyntax.parse(text)).isEqualTo(segments);
  }

  private static void assertUsage(String text, String message) {
    assertThatThrownBy(() -> PathSyntax.parse(text))
        .isInstanceOf(CliException.class)
        .hasMessageContaining(message)
        .satisfies(e -> assertThat(((CliException) e).exitCode()).isEqualTo(ExitCode.USAGE));
  }
}
