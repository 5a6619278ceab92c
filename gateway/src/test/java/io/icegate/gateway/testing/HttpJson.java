package io.icegate.gateway.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;

/** A response body read as JSON, for the tests that call the gateway over HTTP. */
public final class HttpJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private HttpJson() {}

  /** The body as JSON; an assertion error naming status and body when it is not JSON. */
  public static JsonNode json(HttpResponse<String> r) {
    try {
      return JSON.readTree(r.body());
    } catch (Exception e) {
      throw new AssertionError("not JSON: " + r.statusCode() + " " + r.body(), e);
    }
  }

  /** The body of a 201 answer as JSON; an assertion error naming the body for any other status. */
  public static JsonNode created(HttpResponse<String> r) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return json(r);
  }
}
