package io.icegate.admin;

import io.icegate.admin.model.AdminRequests;
import io.icegate.core.account.AccountService;
import io.icegate.core.catalog.CatalogService;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.durability.FencedView;
import io.icegate.core.durability.IdempotentResult;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.integration.IntegrationService;
import io.icegate.core.jobs.Schedules;
import io.icegate.core.overlay.IntegrationCascade;
import io.icegate.core.overlay.OverlayPatch;
import io.icegate.core.overlay.OverlayService;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.CatalogStorage;
import io.icegate.core.model.Etags;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.repo.CreateOutcome;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.OnConflict;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * One method per admin route, each mapping an {@link AdminCall} onto a core service and the result
 * onto an {@link AdminReply}: ETag on every resource answer, If-Match rules, {@code onConflict},
 * Idempotency-Key and paging.
 */
public final class AdminOperations {
  private final AccountService accounts;
  private final CatalogService catalogs;
  private final IntegrationService integrations;
  private final UpstreamOperations upstream;
  private final OverlayService overlays;
  private final IntegrationCascade cascade;
  private final ReconcileRoutes reconcile;
  private final TableRoutes tables;
  private final TokenRoutes tokens;
  private final ScheduleRoutes schedules;
  private final byte[] openapi;

  /**
   * @param upstream validation, capabilities and discovery of integrations (overlay-engine)
   * @param reconcile overlay reconciliation and its operations (overlay-engine)
   * @param tables tables' capture, validation and visibility (core, overlay-engine)
   * @param schedules the schedule views (core)
   */
  public AdminOperations(AccountService accounts, CatalogService catalogs,
      IntegrationService integrations, UpstreamOperations upstream, OverlayService overlays,
      IntegrationCascade cascade, ReconcileRoutes reconcile, TableRoutes tables,
      Schedules schedules) {
    this.schedules = new ScheduleRoutes(schedules);
    this.accounts = Objects.requireNonNull(accounts);
    this.catalogs = Objects.requireNonNull(catalogs);
    this.integrations = Objects.requireNonNull(integrations);
    this.upstream = Objects.requireNonNull(upstream);
    this.overlays = Objects.requireNonNull(overlays);
    this.cascade = Objects.requireNonNull(cascade);
    this.reconcile = Objects.requireNonNull(reconcile);
    this.tables = Objects.requireNonNull(tables);
    this.tokens = new TokenRoutes(accounts);
    try (InputStream in = AdminOperations.class.getResourceAsStream("/openapi.yaml")) {
      this.openapi = Objects.requireNonNull(in, "openapi.yaml is missing").readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Answers {@code call}. */
  public AdminReply handle(AdminCall call) {
    String account = call.var("account");
    return switch (call.route()) {
      case OPENAPI -> new AdminReply(200, "application/yaml", openapi, Map.of());
      case CREATE_ACCOUNT -> {
        AdminRequests.CreateAccount body = AdminJson.read(call.body(), AdminRequests.CreateAccount.class);
        yield created(accounts.create(new Account(AdminJson.require(body.name(), "name")),
            createRequest(call)));
      }
      case LIST_ACCOUNTS -> page(accounts.list(pageRequest(call)));
      case GET_ACCOUNT -> resource(200, accounts.get(account));
      case DELETE_ACCOUNT -> {
        accounts.delete(account, optionalIfMatch(call, account));
        yield new AdminReply(204, null, null, Map.of());
      }
      case WHO_AM_I, ISSUE_TOKEN, LIST_TOKENS, REVOKE_TOKEN ->
          tokens.handle(call, pageRequest(call));
      case CREATE_CATALOG -> createCatalog(call, account);
      case LIST_CATALOGS -> page(catalogs.list(existing(account), pageRequest(call)));
      case GET_CATALOG -> resource(200, catalogs.get(account, call.var("catalog")));
      case PATCH_CATALOG -> patchCatalog(call, account);
      case DELETE_CATALOG -> {
        catalogs.delete(account, call.var("catalog"), optionalIfMatch(call, call.var("catalog")));
        yield new AdminReply(204, null, null, Map.of());
      }
      case CREATE_INTEGRATION -> createIntegration(call, account);
      case LIST_INTEGRATIONS ->
          fencedPage(integrations.listViews(existing(account), pageRequest(call)));
      case GET_INTEGRATION -> fenced(integrations.view(account, call.var("integration")));
      case PATCH_INTEGRATION -> {
        String id = call.var("integration");
        ExpectedGeneration expected = requiredIfMatch(call, id);
        AdminRequests.PatchIntegration body =
            AdminJson.read(call.body(), AdminRequests.PatchIntegration.class);
        yield resource(200, integrations.update(account, id, expected, body.displayName(),
            body.type(), body.uri(), body.properties(), paused(call, body.paused())));
      }
      case DELETE_INTEGRATION -> {
        String id = call.var("integration");
        if (cascade(call)) {
          cascade.delete(account, id, optionalIfMatch(call, id));
        } else {
          integrations.delete(account, id, optionalIfMatch(call, id));
        }
        yield new AdminReply(204, null, null, Map.of());
      }
      case PUT_AUTHENTICATION -> {
        String id = call.var("integration");
        ExpectedGeneration expected = requiredIfMatch(call, id);
        AuthenticationBody auth = AuthenticationBody.split(
            AdminJson.read(call.body(), com.fasterxml.jackson.databind.node.ObjectNode.class));
        yield resource(200, integrations.rotate(account, id, expected, auth.config(),
            auth.secrets()));
      }
      case VALIDATE_INTEGRATION -> {
        if (!TableRoutes.revalidateRequested(call)) {
          yield upstream.handle(call, pageRequest(call));
        }
        Map<String, Object> out = upstream.validation(account, call.var("integration"),
            call.body());
        out.put("revalidation", tables.revalidateIntegration(account, call.var("integration")));
        yield AdminReply.json(200, out).withHeader("Cache-Control", "no-store");
      }
      case INTEGRATION_CAPABILITIES, DISCOVER_NAMESPACES, DISCOVER_OBJECTS ->
          upstream.handle(call, pageRequest(call));
      case FIND_TABLES, GET_TABLE, TABLE_VALIDATION_ERRORS, PUT_VISIBILITY_OVERRIDE, DELETE_VISIBILITY_OVERRIDE,
          REVALIDATE_TABLE -> tables.handle(call);
      case CREATE_OVERLAY -> {
        AdminRequests.CreateOverlay body =
            AdminJson.read(call.body(), AdminRequests.CreateOverlay.class);
        CatalogOverlay spec = new CatalogOverlay(
            AdminJson.require(body.displayName(), "displayName"),
            AdminJson.require(body.integrationId(), "integrationId"),
            AdminJson.require(body.catalogId(), "catalogId"),
            namespaces(call, "includeNamespaces", body.includeNamespaces()),
            namespaces(call, "excludeNamespaces", body.excludeNamespaces()),
            body.refreshInterval(), body.retention(),
            Boolean.TRUE.equals(paused(call, body.paused())));
        yield created(overlays.create(account, spec, createRequest(call)));
      }
      case LIST_OVERLAYS -> fencedPage(overlays.listViews(existing(account), pageRequest(call)));
      case GET_OVERLAY -> fenced(overlays.view(account, call.var("overlay")));
      case PATCH_OVERLAY -> {
        String id = call.var("overlay");
        ExpectedGeneration expected = requiredIfMatch(call, id);
        AdminRequests.PatchOverlay body =
            AdminJson.read(call.body(), AdminRequests.PatchOverlay.class);
        com.fasterxml.jackson.databind.JsonNode named = AdminJson.tree(call.body());
        yield resource(200, overlays.update(account, id, expected, new OverlayPatch(
            body.displayName(), body.integrationId(), body.catalogId(),
            namespaces(call, "includeNamespaces", body.includeNamespaces()),
            namespaces(call, "excludeNamespaces", body.excludeNamespaces()),
            named.has("refreshInterval") ? Optional.ofNullable(body.refreshInterval()) : null,
            named.has("retention") ? Optional.ofNullable(body.retention()) : null,
            paused(call, body.paused()))));
      }
      case DELETE_OVERLAY -> {
        String id = call.var("overlay");
        overlays.delete(account, id, optionalIfMatch(call, id));
        yield new AdminReply(204, null, null, Map.of());
      }
      case RECONCILE_OVERLAY, CAPTURE_OVERLAY, GET_OPERATION -> reconcile.handle(call);
      case OVERLAY_SCHEDULE, INTEGRATION_SCHEDULE -> schedules.handle(call);
    };
  }

  /**
   * A {@code paused} member of a PATCH or a create: absent keeps the pause (not paused on
   * create), a boolean sets it, JSON null is refused alike on both (the member is a boolean, not
   * removable as the durations are: a null would have to be read either as "no change" or as
   * "resume", and the configuration generation advances only on a real pause change).
   */
  private static Boolean paused(AdminCall call, Boolean paused) {
    if (paused == null && AdminJson.tree(call.body()).path("paused").isNull()) {
      throw IcegateException.invalidArgument("paused must be true or false (leave it out to keep "
          + "the pause as it is), got null");
    }
    return paused;
  }

  /**
   * An Overlay's {@code includeNamespaces} or {@code excludeNamespaces}: absent keeps the list
   * (empty on create), JSON null is refused alike on create and PATCH. Read as "absent", a PATCH
   * meaning "clear the list" answered 200 and changed nothing; read as an empty list, a null
   * include selects the whole upstream tree, which a templated null should never do silently.
   */
  private static List<List<String>> namespaces(AdminCall call, String member,
      List<List<String>> paths) {
    if (paths == null && AdminJson.tree(call.body()).path(member).isNull()) {
      throw IcegateException.invalidArgument(member + " must be a list of namespace paths, got "
          + "null (leave the member out to keep it, or send [] for an empty list)");
    }
    return paths;
  }

  private static boolean cascade(AdminCall call) {
    String value = call.query().getOrDefault("cascade", "false");
    return switch (value) {
      case "true" -> true;
      case "false" -> false;
      default -> throw IcegateException.invalidArgument("cascade must be true or false");
    };
  }

  /**
   * The account id, after checking that the account exists: an empty page would read as "an
   * account with nothing in it" (a server admin may name any id). Throws NOT_FOUND otherwise.
   */
  private String existing(String account) {
    accounts.get(account);
    return account;
  }

  private AdminReply createCatalog(AdminCall call, String account) {
    AdminRequests.CreateCatalog body = AdminJson.read(call.body(), AdminRequests.CreateCatalog.class);
    Catalog spec = new Catalog(AdminJson.require(body.name(), "name"),
        AdminJson.require(body.warehouse(), "warehouse"), body.properties(),
        storage(body.storage()));
    String secret = body.storage() == null || body.storage().s3() == null ? null
        : body.storage().s3().secretAccessKey();
    return created(catalogs.create(account, spec, secret, createRequest(call)));
  }

  /**
   * Absent top-level members keep their value; a present {@code storage} replaces the stored one,
   * except the static key pair ({@code accessKeyId} with its write-only {@code secretAccessKey}),
   * which moves as one: neither member given keeps the stored pair, both given replaces it (both
   * {@code null} removes it), one alone is a 400 naming the other. The GET view's {@code
   * accessKeyId}, sent back unchanged without a secret, keeps the pair too (core's rule).
   */
  private AdminReply patchCatalog(AdminCall call, String account) {
    String id = call.var("catalog");
    ExpectedGeneration expected = requiredIfMatch(call, id);
    AdminRequests.PatchCatalog body = AdminJson.read(call.body(), AdminRequests.PatchCatalog.class);
    String secret = body.storage() == null || body.storage().s3() == null ? null
        : body.storage().s3().secretAccessKey();
    KeyMembers named = keyMembers(call.body());
    // merged by core inside the transaction that writes it, onto the record it replaces
    UnaryOperator<Catalog> patch = current -> new Catalog(
        body.name() == null ? current.name() : body.name(), current.warehouse(),
        body.properties() == null ? current.properties() : body.properties(),
        body.storage() == null ? current.storage()
            : withKeyPair(body.storage(), named, secret, current));
    return resource(200, catalogs.update(account, id, expected, patch, secret));
  }

  /** Which of storage.s3's key members a PATCH body names (a JSON null counts as named). */
  private record KeyMembers(boolean accessKeyId, boolean secretAccessKey) {}

  private static KeyMembers keyMembers(byte[] body) {
    com.fasterxml.jackson.databind.JsonNode s3 = AdminJson.tree(body).path("storage").path("s3");
    return new KeyMembers(s3.has("accessKeyId"), s3.has("secretAccessKey"));
  }

  /**
   * The storage a PATCH's {@code requested} storage means for the key pair: the stored access key
   * id when the body names neither key member (so settings that need the pair, such as {@code
   * vendStaticKeys}, see it); as given otherwise, after refusing a lone half.
   */
  private static CatalogStorage withKeyPair(AdminRequests.Storage requested, KeyMembers named,
      String secret, Catalog current) {
    if (requested.s3() == null) {
      return null;
    }
    String requestedKeyId = requested.s3().accessKeyId();
    String storedKeyId = current.storage() == null || current.storage().s3() == null ? null
        : current.storage().s3().accessKeyId();
    if (!named.accessKeyId() && !named.secretAccessKey()) {
      return storage(requested, storedKeyId);
    }
    if (!named.accessKeyId()) {
      throw IcegateException.invalidArgument(
          "storage.s3.accessKeyId is required with storage.s3.secretAccessKey");
    }
    if (named.secretAccessKey() && requestedKeyId != null && secret == null) {
      throw IcegateException.invalidArgument("storage.s3.secretAccessKey is required with "
          + "storage.s3.accessKeyId (both null remove the keys)");
    }
    // A named null key id alone would drop a stored pair by accident: removal names both.
    if (!named.secretAccessKey() && requestedKeyId == null && storedKeyId != null) {
      throw IcegateException.invalidArgument("storage.s3.secretAccessKey is required: give "
          + "storage.s3.accessKeyId and storage.s3.secretAccessKey both as null to remove the keys");
    }
    return storage(requested, requestedKeyId);
  }

  private AdminReply createIntegration(AdminCall call, String account) {
    AdminRequests.CreateIntegration body =
        AdminJson.read(call.body(), AdminRequests.CreateIntegration.class);
    AuthenticationBody auth = AuthenticationBody.split(
        AdminJson.require(body.authentication(), "authentication"));
    Integration spec = new Integration(AdminJson.require(body.displayName(), "displayName"),
        AdminJson.require(body.type(), "type"), AdminJson.require(body.uri(), "uri"),
        body.properties(), auth.config(), 0);
    return created(integrations.create(account, spec, auth.secrets(), createRequest(call)));
  }

  private static CatalogStorage storage(AdminRequests.Storage storage) {
    return storage == null || storage.s3() == null ? null
        : storage(storage, storage.s3().accessKeyId());
  }

  /** {@code storage} (with S3 settings) as the model holds it, with {@code accessKeyId}. */
  private static CatalogStorage storage(AdminRequests.Storage storage, String accessKeyId) {
    AdminRequests.S3 s3 = storage.s3();
    if (s3.endpoint() != null) {
      // checked here rather than in the model, so a stored record never becomes unreadable
      CatalogStorage.checkEndpoint(s3.endpoint(), "storage.s3.endpoint");
    }
    CatalogStorage.AssumeRole assumeRole = null;
    if (s3.roleArn() != null) {
      assumeRole = new CatalogStorage.AssumeRole(s3.roleArn(), s3.stsEndpoint(),
          s3.durationSeconds() == null
              ? CatalogStorage.AssumeRole.DEFAULT_DURATION_SECONDS
              : s3.durationSeconds(),
          s3.externalId());
    } else {
      requireRoleArnFor("stsEndpoint", s3.stsEndpoint());
      requireRoleArnFor("durationSeconds", s3.durationSeconds());
      requireRoleArnFor("externalId", s3.externalId());
    }
    return new CatalogStorage(new CatalogStorage.S3(s3.endpoint(), s3.region(),
        Boolean.TRUE.equals(s3.pathStyleAccess()), accessKeyId, 0,
        Boolean.TRUE.equals(s3.vendStaticKeys()), assumeRole));
  }

  private static void requireRoleArnFor(String member, Object value) {
    if (value != null) {
      throw IcegateException.invalidArgument(
          "storage.s3." + member + " is an AssumeRole setting: it needs storage.s3.roleArn");
    }
  }

  private static CreateRequest createRequest(AdminCall call) {
    String mode = call.query().getOrDefault("onConflict", "error");
    OnConflict onConflict = switch (mode) {
      case "error" -> OnConflict.ERROR;
      case "replace" -> OnConflict.REPLACE;
      case "return-existing" -> OnConflict.RETURN_EXISTING;
      default -> throw IcegateException.invalidArgument(
          "onConflict must be error, replace or return-existing");
    };
    return new CreateRequest(onConflict, call.idempotencyKey());
  }

  static PageRequest pageRequest(AdminCall call) {
    String size = call.query().get("pageSize");
    int pageSize = size == null ? PageRequest.DEFAULT_PAGE_SIZE : PageRequest.parseSize(size)
        .orElseThrow(() -> IcegateException.invalidArgument("pageSize must be an integer"));
    return new PageRequest(call.query().get("pageToken"), pageSize);
  }

  static ExpectedGeneration requiredIfMatch(AdminCall call, String id) {
    if (call.ifMatch() == null) {
      throw new IcegateException(ErrorCode.PRECONDITION_REQUIRED, null);
    }
    return optionalIfMatch(call, id);
  }

  /**
   * The precondition of {@code If-Match} (RFC 9110 13.1.1): none when absent or {@code *} (the
   * resource exists, which the operation checks anyway), else the generations its list of ETags
   * names, any one of which satisfies it; 412 when it names none of this resource. A value that is
   * no list of quoted tags ({@code abc}, {@code W/abc}: quotes a shell stripped) is also 412, as
   * 13.1.1 evaluates anything but {@code *} or a matching tag as false, but its detail says the
   * tag must be sent quoted as the ETag header gave it, which a plain mismatch would not reveal.
   */
  static ExpectedGeneration optionalIfMatch(AdminCall call, String id) {
    if (call.ifMatch() == null || call.ifMatch().strip().equals("*")) {
      return ExpectedGeneration.any();
    }
    if (!Etags.isTagList(call.ifMatch())) {
      throw new IcegateException(ErrorCode.PRECONDITION_FAILED, null, "If-Match is not a list of"
          + " entity tags: send the ETag exactly as the ETag header returned it, double quotes"
          + " included (e.g. " + Etags.of(id, 1) + "; a shell may have stripped the quotes)",
          null);
    }
    java.util.Set<Long> generations = Etags.generationsOf(call.ifMatch(), id);
    if (generations.isEmpty()) {
      throw new IcegateException(ErrorCode.PRECONDITION_FAILED, null, "resource", id);
    }
    return ExpectedGeneration.oneOf(generations);
  }

  private static <S extends io.icegate.core.model.ResourceSpec> AdminReply created(
      IdempotentResult<S> result) {
    CreateOutcome<S> outcome = result.outcome();
    int status = outcome.disposition() == CreateOutcome.Disposition.EXISTING ? 200 : 201;
    AdminReply reply = resource(status, outcome.resource());
    return result.replayed() ? reply.withHeader("Idempotency-Replayed", "true") : reply;
  }

  private static AdminReply resource(int status, Resource<?> resource) {
    return AdminReply.json(status, AdminViews.of(resource)).withHeader("ETag", resource.etag());
  }

  /** An Overlay or Integration with its deletion state (AdminViews#of(FencedView)). */
  private static AdminReply fenced(FencedView<?> view) {
    return AdminReply.json(200, AdminViews.of(view))
        .withHeader("ETag", view.resource().etag());
  }

  private static AdminReply fencedPage(Page<? extends FencedView<?>> page) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("items", page.items().stream().map(v -> {
      Map<String, Object> view = AdminViews.of(v);
      view.put("etag", v.resource().etag());
      return view;
    }).toList());
    out.put("nextPageToken", page.nextPageToken());
    return AdminReply.json(200, out);
  }

  private static AdminReply page(Page<? extends Resource<?>> page) {
    Map<String, Object> out = new LinkedHashMap<>();
    List<Map<String, Object>> items = page.items().stream().map(r -> {
      Map<String, Object> view = AdminViews.of(r);
      view.put("etag", r.etag());
      return view;
    }).toList();
    out.put("items", items);
    out.put("nextPageToken", page.nextPageToken());
    return AdminReply.json(200, out);
  }

}
