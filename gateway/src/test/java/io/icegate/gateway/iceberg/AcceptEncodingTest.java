package io.icegate.gateway.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** RFC 9110 12.5.3 content negotiation for gzip. */
class AcceptEncodingTest {
  @ParameterizedTest(name = "[{0}] admits gzip: {1}")
  @CsvSource(delimiter = '|', nullValues = "NULL", value = {
      "NULL | false",
      "'' | false",
      "gzip | true",
      "'gzip, x-gzip, deflate' | true",
      "GZip | true",
      "x-gzip | true",
      "deflate | false",
      "identity | false",
      "br;q=1.0, gzip;q=0.8 | true",
      "gzip;q=0 | false",
      "gzip; q=0.000 | false",
      "gzip;Q=0.5 | true",
      "* | true",
      "*;q=0 | false",
      "'*, gzip;q=0' | false",
      "'gzip;q=0, x-gzip' | true",
      "gzip;q=abc | false",
      "gzip;q=2 | false",
      "gzip;level=1 | true",
      "' , ,gzip' | true",
  })
  void admitsGzip(String header, boolean expected) {
    assertThat(AcceptEncoding.admitsGzip(header)).isEqualTo(expected);
  }
}
