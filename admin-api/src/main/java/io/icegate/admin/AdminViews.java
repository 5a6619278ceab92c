package io.icegate.admin;

import io.icegate.core.durability.FencedView;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.CatalogStorage;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Response bodies of admin resources: the envelope (id, generations, timestamps) and the non-secret
 * members. Write-only members never appear; integrations and catalogs with storage say whether
 * credentials are configured and at which generation.
 */
final class AdminViews {
  private AdminViews() {}

  /**
   * An Overlay's or Integration's view with {@code deleting} (whether a deletion fence is set: a
   * delete, replace or cascade started and did not finish; repeating the DELETE finishes it) and,
   * while it is, {@code deletionFence} with when the fence was installed.
   */
  static Map<String, Object> of(FencedView<?> view) {
    Map<String, Object> out = of(view.resource());
    out.put("deleting", view.deleting());
    if (view.deleting()) {
      out.put("deletionFence",
          Map.of("installedAt", view.deletionFence().installedAt().toString()));
    }
    return out;
  }

  static Map<String, Object> of(Resource<?> resource) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", resource.id());
    if (resource.spec() instanceof Account a) {
      out.put("name", a.name());
    } else if (resource.spec() instanceof Catalog c) {
      out.put("name", c.name());
      out.put("warehouse", c.warehouse());
      out.put("properties", c.properties());
      if (c.storage() != null && c.storage().s3() != null) {
        CatalogStorage.S3 s3 = c.storage().s3();
        Map<String, Object> s3View = new LinkedHashMap<>();
        s3View.put("endpoint", s3.endpoint());
        s3View.put("region", s3.region());
        s3View.put("pathStyleAccess", s3.pathStyleAccess());
        s3View.put("accessKeyId", s3.accessKeyId());
        s3View.put("credentialsConfigured", s3.credentialGeneration() > 0);
        s3View.put("credentialGeneration", s3.credentialGeneration());
        s3View.put("vending", s3.assumeRole() != null ? "assume-role"
            : s3.vendStaticKeys() ? "static-keys" : "none");
        s3View.put("vendStaticKeys", s3.vendStaticKeys());
        if (s3.assumeRole() != null) {
          s3View.put("roleArn", s3.assumeRole().roleArn());
          s3View.put("stsEndpoint", s3.assumeRole().stsEndpoint());
          s3View.put("durationSeconds", s3.assumeRole().durationSeconds());
          s3View.put("externalId", s3.assumeRole().externalId());
        }
        out.put("storage", Map.of("s3", s3View));
      }
    } else if (resource.spec() instanceof Integration i) {
      out.put("displayName", i.displayName());
      out.put("type", i.type().name());
      out.put("uri", i.uri());
      out.put("properties", i.properties());
      Map<String, Object> auth = new LinkedHashMap<>();
      auth.put("type", i.authentication().typeName());
      auth.putAll(AdminJson.mapper().convertValue(i.authentication(), Map.class));
      auth.put("type", i.authentication().typeName());
      out.put("authentication", auth);
      out.put("credentialsConfigured", i.credentialsConfigured());
      out.put("credentialGeneration", i.credentialGeneration());
      out.put("paused", i.paused());
    }
    if (resource.spec() instanceof Table t) {
      out.put("catalogId", t.catalogId());
      out.put("namespace", t.namespace());
      out.put("name", t.name());
      out.put("metadataLocation", t.metadataLocation());
      out.put("properties", t.properties());
      out.put("managed", t.managed());
      if (t.provenance() != null) {
        Provenance p = t.provenance();
        Map<String, Object> provenance = new LinkedHashMap<>();
        provenance.put("integrationId", p.integrationId());
        provenance.put("overlayId", p.overlayId());
        provenance.put("upstreamNamespace", p.upstreamNamespace());
        provenance.put("upstreamName", p.upstreamName());
        provenance.put("tableFormat", p.tableFormat());
        provenance.put("upstreamMetadataLocation", p.upstreamMetadataLocation());
        out.put("provenance", provenance);
      }
    }
    if (resource.spec() instanceof CatalogOverlay o) {
      out.put("displayName", o.displayName());
      out.put("integrationId", o.integrationId());
      out.put("catalogId", o.catalogId());
      out.put("includeNamespaces", o.includeNamespaces());
      out.put("excludeNamespaces", o.excludeNamespaces());
      out.put("refreshInterval", o.refreshInterval());
      out.put("retention", o.retention());
      out.put("paused", o.paused());
    }
    out.put("accountId", resource.accountId());
    out.put("generation", resource.generation());
    out.put("configurationGeneration", resource.configurationGeneration());
    out.put("createdAt", resource.createdAt().toString());
    out.put("updatedAt", resource.updatedAt().toString());
    return out;
  }
}
