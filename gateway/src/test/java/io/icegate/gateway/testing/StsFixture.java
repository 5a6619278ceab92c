package io.icegate.gateway.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A loopback STS for AssumeRole: a JDK HTTP server on 127.0.0.1 and a free port that reads the
 * AWS query protocol (a form-encoded POST, {@code Action=AssumeRole}), records every request, and
 * answers STS's XML with fresh test credentials that expire after the requested {@code
 * DurationSeconds} (or {@link #lifetime(Duration)}). Written from the public STS API reference
 * (AssumeRole request parameters, response and error shapes); it checks no signature, so it stands
 * in for STS only where the test is about what icegate asks and hands out.
 */
public final class StsFixture implements AutoCloseable {
  private static final String NS = "https://sts.amazonaws.com/doc/2011-06-15/";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One AssumeRole request as received: its form fields and the SigV4 key id that signed it. */
  public record Received(Map<String, String> form, String signingKeyId) {
    public String get(String field) {
      return form.get(field);
    }

    /** The session policy the request asked for ({@code Policy}), read as IAM reads it. */
    public SessionPolicy policy() {
      try {
        return new SessionPolicy(JSON.readTree(form.get("Policy")));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  /** A session policy document: what its statements allow on objects and for listing. */
  public record SessionPolicy(JsonNode document) {
    /** The resources of the statements allowing {@code s3:GetObject}. */
    public List<String> objectResources() {
      List<String> out = new ArrayList<>();
      for (JsonNode statement : document.get("Statement")) {
        if (statement.get("Action").toString().contains("s3:GetObject")) {
          out.add(statement.get("Resource").asText());
        }
      }
      return out;
    }

    /** The actions of the statements allowing {@code s3:GetObject}. */
    public List<String> objectActions() {
      List<String> out = new ArrayList<>();
      for (JsonNode statement : document.get("Statement")) {
        if (statement.get("Action").toString().contains("s3:GetObject")) {
          statement.get("Action").forEach(a -> out.add(a.asText()));
        }
      }
      return out;
    }

    /** The {@code s3:prefix} values listing is allowed with. */
    public List<String> listPrefixes() {
      List<String> out = new ArrayList<>();
      for (JsonNode statement : document.get("Statement")) {
        if (statement.get("Action").toString().contains("s3:ListBucket")) {
          statement.get("Condition").get("StringLike").get("s3:prefix")
              .forEach(p -> out.add(p.asText()));
        }
      }
      return out;
    }
  }

  /** Credentials the fixture issued. */
  public record Issued(String accessKeyId, String secretAccessKey, String sessionToken,
      Instant expiration) {}

  private final HttpServer server;
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final List<Issued> issued = new CopyOnWriteArrayList<>();
  private final AtomicInteger counter = new AtomicInteger();
  private final AtomicReference<Duration> lifetime = new AtomicReference<>();
  private final AtomicReference<String> refuseWith = new AtomicReference<>();

  private StsFixture(HttpServer server) {
    this.server = server;
  }

  /** Starts the fixture on 127.0.0.1 and a free port. */
  public static StsFixture start() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    StsFixture sts = new StsFixture(server);
    server.createContext("/", sts::handle);
    server.start();
    return sts;
  }

  /** The endpoint to configure as {@code storage.s3.stsEndpoint}. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Every AssumeRole request so far, in order. */
  public List<Received> requests() {
    return new ArrayList<>(received);
  }

  /** Every set of credentials issued so far, in order. */
  public List<Issued> issued() {
    return new ArrayList<>(issued);
  }

  /** Issue sessions that live {@code life} instead of the requested duration; null resets. */
  public void lifetime(Duration life) {
    lifetime.set(life);
  }

  /** Answer every AssumeRole with the STS error {@code code} (403); null resets. */
  public void refuse(String code) {
    refuseWith.set(code);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      Map<String, String> form = new LinkedHashMap<>();
      for (String pair : body.split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq),
            StandardCharsets.UTF_8);
        String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1),
            StandardCharsets.UTF_8);
        form.put(name, value);
      }
      received.add(new Received(form, signingKeyId(exchange)));
      if (!"AssumeRole".equals(form.get("Action"))) {
        reply(exchange, 400, error("InvalidAction", "only AssumeRole is served here"));
        return;
      }
      String refusal = refuseWith.get();
      if (refusal != null) {
        reply(exchange, 403, error(refusal, "refused by the test"));
        return;
      }
      int n = counter.incrementAndGet();
      Duration life = lifetime.get() != null
          ? lifetime.get()
          : Duration.ofSeconds(Long.parseLong(form.getOrDefault("DurationSeconds", "3600")));
      Issued session = new Issued("ASIATESTSESSION" + n, "test-session-secret-" + n + "-"
          + UUID.randomUUID(), "test-session-token-" + n + "-" + UUID.randomUUID(),
          Instant.now().plus(life).truncatedTo(ChronoUnit.SECONDS));
      issued.add(session);
      reply(exchange, 200, "<AssumeRoleResponse xmlns=\"" + NS + "\"><AssumeRoleResult>"
          + "<Credentials><AccessKeyId>" + session.accessKeyId() + "</AccessKeyId>"
          + "<SecretAccessKey>" + session.secretAccessKey() + "</SecretAccessKey>"
          + "<SessionToken>" + session.sessionToken() + "</SessionToken>"
          + "<Expiration>" + session.expiration() + "</Expiration></Credentials>"
          + "<AssumedRoleUser><AssumedRoleId>AROATEST:" + form.get("RoleSessionName")
          + "</AssumedRoleId><Arn>" + form.get("RoleArn") + "/" + form.get("RoleSessionName")
          + "</Arn></AssumedRoleUser><PackedPolicySize>10</PackedPolicySize>"
          + "</AssumeRoleResult><ResponseMetadata><RequestId>" + UUID.randomUUID()
          + "</RequestId></ResponseMetadata></AssumeRoleResponse>");
    }
  }

  /** The access key id of a SigV4 {@code Authorization} header ({@code Credential=KEY/...}). */
  private static String signingKeyId(HttpExchange exchange) {
    String auth = exchange.getRequestHeaders().getFirst("Authorization");
    if (auth == null || !auth.contains("Credential=")) {
      return null;
    }
    String rest = auth.substring(auth.indexOf("Credential=") + "Credential=".length());
    return rest.substring(0, rest.indexOf('/'));
  }

  private static String error(String code, String message) {
    return "<ErrorResponse xmlns=\"" + NS + "\"><Error><Type>Sender</Type><Code>" + code
        + "</Code><Message>" + message + "</Message></Error><RequestId>" + UUID.randomUUID()
        + "</RequestId></ErrorResponse>";
  }

  private static void reply(HttpExchange exchange, int status, String xml) throws IOException {
    byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/xml");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
