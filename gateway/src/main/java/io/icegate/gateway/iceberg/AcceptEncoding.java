package io.icegate.gateway.iceberg;

/**
 * Reads a request's {@code Accept-Encoding} header (RFC 9110 12.5.3) for the one content coding
 * icegate serves besides identity: gzip. iceberg-core's HTTP client (Apache HttpClient 5) sends
 * {@code gzip, x-gzip, deflate} on every request and decompresses the answer itself.
 */
final class AcceptEncoding {
  private AcceptEncoding() {}

  /**
   * Whether {@code header} admits gzip: {@code gzip} or {@code x-gzip} listed with a quality above
   * zero, or, when neither is listed, {@code *} with a quality above zero. A missing header admits
   * identity only: RFC 9110 allows any coding then, but a client that sends nothing may not be able
   * to decode one. A malformed quality counts as zero.
   */
  static boolean admitsGzip(String header) {
    if (header == null || header.isEmpty()) {
      return false;
    }
    double gzip = -1;
    double any = -1;
    for (String element : header.split(",")) {
      int semicolon = element.indexOf(';');
      String coding = (semicolon < 0 ? element : element.substring(0, semicolon)).strip();
      double quality = semicolon < 0 ? 1 : quality(element.substring(semicolon + 1));
      if (coding.equalsIgnoreCase("gzip") || coding.equalsIgnoreCase("x-gzip")) {
        gzip = Math.max(gzip, quality);
      } else if (coding.equals("*")) {
        any = Math.max(any, quality);
      }
    }
    return gzip >= 0 ? gzip > 0 : any > 0;
  }

  /** The {@code q} of a coding's parameters ({@code q=0.5}), 1 when absent, 0 when malformed. */
  private static double quality(String parameters) {
    for (String parameter : parameters.split(";")) {
      String p = parameter.strip();
      if (p.length() > 2 && (p.charAt(0) == 'q' || p.charAt(0) == 'Q') && p.charAt(1) == '=') {
        try {
          double q = Double.parseDouble(p.substring(2));
          return q >= 0 && q <= 1 ? q : 0;
        } catch (NumberFormatException e) {
          return 0;
        }
      }
    }
    return 1;
  }
}
