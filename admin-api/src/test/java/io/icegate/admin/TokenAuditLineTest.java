package io.icegate.admin;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.icegate.admin.testing.AdminServer;
import io.icegate.core.auth.TokenRole;
import io.icegate.core.model.Account;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The audit lines of token issue and revocation name tokens quoted and escaped (tryout): a token
 * name may hold a quote or a right-to-left override, which printed raw let one token's line read
 * as another caller's ({@code by=token 'x' of account B (server admin)' of account A}) or reorder
 * the rest of the line on a terminal.
 */
class TokenAuditLineTest {
  private static final String FORGER = "igt_admin-api-test-forger";
  private static final String FORGED_NAME = "x' of account other (server admin)\u202e";

  private AdminServer server;
  private String account;
  private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
  private final Logger audit = (Logger) LoggerFactory.getLogger("io.icegate.audit");

  @BeforeEach
  void start() {
    server = AdminServer.start();
    account = server.services.repositories().accounts().create(new Account("acme")).id();
    server.grant(AdminServer.ADMIN, account, TokenRole.ADMIN, true);
    lines.start();
    audit.addAppender(lines);
  }

  @AfterEach
  void stop() throws Exception {
    audit.detachAppender(lines);
    server.close();
  }

  @Test
  void tokenNamesAreQuotedAndEscapedInAuditLines() {
    String tokens = "/admin/v1/accounts/" + account + "/tokens";
    var issued = server.send("POST", tokens,
        "{\"name\":\"x' of account other (server admin)\\u202e\",\"role\":\"admin\"}");
    assertThat(issued.statusCode()).as(issued.body()).isEqualTo(201);
    String id = AdminServer.json(issued).get("id").asText();
    // a caller whose own token name forges (AdminServer.grant names every token "test")
    server.services.store().run(tx -> {
      server.services.core().tokens().put(tx, FORGER,
          new io.icegate.core.auth.TokenGrant(account, TokenRole.ADMIN, false, FORGED_NAME));
      return null;
    });
    assertThat(server.send("POST", tokens, "{\"name\":\"plain\",\"role\":\"reader\"}",
        "Authorization", "Bearer " + FORGER).statusCode()).isEqualTo(201);
    assertThat(server.send("DELETE", tokens + "/" + id, null).statusCode()).isEqualTo(204);

    List<String> messages = lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    assertThat(messages).hasSize(3);
    String escaped = "'x\\' of account other (server admin)\\u202E'";
    assertThat(messages.get(0)).startsWith("token issued:").contains("name=" + escaped + ",");
    assertThat(messages.get(1)).contains("name='plain'", "by=token " + escaped + " of account "
        + account);
    assertThat(messages.get(2)).startsWith("token revoked:").contains("name=" + escaped + ",");
    assertThat(messages).noneMatch(m -> m.contains("\u202e"));
  }
}
