package io.icegate.admin;

import io.icegate.admin.model.AdminRequests;
import io.icegate.core.account.AccountService;
import io.icegate.core.auth.TokenEntry;
import io.icegate.core.auth.TokenGrant;
import io.icegate.core.auth.TokenRole;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.repo.DependentNames;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The token routes (issue 31): issue, list, revoke; and who the caller's own token is (issue 30,
 * for the console: an account token cannot list accounts to learn its account's name). Server-admin tokens are issued and revoked
 * only by server admins. Each issue and revocation writes one audit line naming the caller (its
 * token's name and account) and the token's id and name, never a secret.
 */
final class TokenRoutes {
  private static final Logger AUDIT = LoggerFactory.getLogger("io.icegate.audit");

  private final AccountService accounts;

  TokenRoutes(AccountService accounts) {
    this.accounts = Objects.requireNonNull(accounts);
  }

  AdminReply handle(AdminCall call, PageRequest page) {
    String account = call.var("account");
    return switch (call.route()) {
      case WHO_AM_I -> whoAmI(call.caller());
      case ISSUE_TOKEN -> issue(call, account);
      case LIST_TOKENS -> list(accounts.listTokens(account, page));
      case REVOKE_TOKEN -> revoke(call, account);
      default -> throw new IllegalArgumentException("not a token route: " + call.route());
    };
  }

  private AdminReply issue(AdminCall call, String account) {
    AdminRequests.IssueToken body = AdminJson.read(call.body(), AdminRequests.IssueToken.class);
    boolean serverAdmin = Boolean.TRUE.equals(body.serverAdmin());
    String role = serverAdmin && body.role() == null ? "admin" : AdminJson.require(body.role(), "role");
    TokenRole parsed = switch (role) {
      case "admin" -> TokenRole.ADMIN;
      case "writer" -> TokenRole.WRITER;
      case "reader" -> TokenRole.READER;
      default -> throw AdminJson.malformed("member role must be admin, writer or reader");
    };
    if (serverAdmin && (!call.caller().serverAdmin() || parsed != TokenRole.ADMIN)) {
      throw new IcegateException(ErrorCode.PERMISSION_DENIED, null, callerRole(call),
          "issue a server-admin token" + (parsed != TokenRole.ADMIN ? " with a role other than admin" : ""));
    }
    AccountService.IssuedToken issued = accounts.issueToken(account,
        AdminJson.require(body.name(), "name"), parsed, serverAdmin, instant(body.expiresAt()));
    AUDIT.info("token issued: id={}, name={}, account={}, role={}, serverAdmin={}, expiresAt={}, "
        + "by={}", issued.id(), DependentNames.quoted(issued.grant().name()), account, role, serverAdmin,
        issued.grant().expiresAt(), by(call));
    Map<String, Object> out = view(new TokenEntry(issued.id(), issued.grant()));
    out.put("token", issued.token());
    return AdminReply.json(201, out).withHeader("Cache-Control", "no-store");
  }

  private AdminReply whoAmI(TokenGrant caller) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("accountId", caller.accountId());
    out.put("accountName", accounts.get(caller.accountId()).spec().name());
    out.put("role", caller.role().name().toLowerCase(Locale.ROOT));
    out.put("serverAdmin", caller.serverAdmin());
    out.put("name", caller.name());
    out.put("expiresAt", text(caller.expiresAt()));
    return AdminReply.json(200, out);
  }

  private AdminReply revoke(AdminCall call, String account) {
    String id = call.var("token");
    TokenEntry revoked = accounts.revokeToken(account, id, call.caller().serverAdmin());
    AUDIT.info("token revoked: id={}, name={}, account={}, serverAdmin={}, by={}", id,
        DependentNames.quoted(revoked.grant().name()), account, revoked.grant().serverAdmin(),
        by(call));
    return new AdminReply(204, null, null, Map.of());
  }

  private static AdminReply list(Page<TokenEntry> page) {
    Map<String, Object> out = new LinkedHashMap<>();
    List<Map<String, Object>> items = page.items().stream().map(TokenRoutes::view).toList();
    out.put("items", items);
    out.put("nextPageToken", page.nextPageToken());
    return AdminReply.json(200, out);
  }

  /** A token as the API shows it: never the secret or its digest. */
  private static Map<String, Object> view(TokenEntry entry) {
    TokenGrant grant = entry.grant();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", entry.id());
    out.put("name", grant.name());
    out.put("role", grant.role().name().toLowerCase(Locale.ROOT));
    out.put("accountId", grant.accountId());
    out.put("serverAdmin", grant.serverAdmin());
    out.put("createdAt", text(grant.createdAt()));
    out.put("lastUsedAt", text(grant.lastUsedAt()));
    out.put("expiresAt", text(grant.expiresAt()));
    return out;
  }

  private static String text(Instant instant) {
    return instant == null ? null : instant.toString();
  }

  private static Instant instant(String text) {
    if (text == null) {
      return null;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw AdminJson.malformed("member expiresAt must be an ISO-8601 instant");
    }
  }

  private static String callerRole(AdminCall call) {
    return call.caller().role().name().toLowerCase(Locale.ROOT);
  }

  /**
   * The caller as audit lines name it. Names are quoted and escaped (a quote, a right-to-left
   * override): a token named {@code x' of account B (server admin)} must not read as another
   * caller, nor one with an override reorder the rest of the line on a terminal.
   */
  private static String by(AdminCall call) {
    TokenGrant caller = call.caller();
    return "token " + DependentNames.quoted(caller.name()) + " of account " + caller.accountId()
        + (caller.serverAdmin() ? " (server admin)" : "");
  }
}
