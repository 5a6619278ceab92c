package io.icegate.cli.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IfMatchTest {

  @Test
  void aBareTagIsQuotedAsTheShellWouldHaveLeftIt() {
    assertThat(IfMatch.quoted("3")).isEqualTo("\"3\"");
    assertThat(IfMatch.quoted("W/3")).isEqualTo("W/\"3\"");
    assertThat(IfMatch.quoted("abc/3")).isEqualTo("\"abc/3\"");
    assertThat(IfMatch.quoted("abc/3, W/abc/4")).isEqualTo("\"abc/3\", W/\"abc/4\"");
  }

  @Test
  void aQuotedValueAStarAndNothingAreSentUnchanged() {
    assertThat(IfMatch.quoted("\"abc/3\"")).isEqualTo("\"abc/3\"");
    assertThat(IfMatch.quoted("W/\"abc/3\"")).isEqualTo("W/\"abc/3\"");
    assertThat(IfMatch.quoted("\"a/1\",\"a/2\"")).isEqualTo("\"a/1\",\"a/2\"");
    assertThat(IfMatch.quoted("*")).isEqualTo("*");
    assertThat(IfMatch.quoted(null)).isNull();
  }
}
