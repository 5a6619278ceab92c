package io.icegate.access.unity.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * The parts of Unity Catalog's REST API 2.1 ({@code /api/2.1/unity-catalog}, its published OpenAPI
 * document) this provider reads, as Jackson records with the API's snake_case member names. Unknown
 * members are ignored so that a newer server does not break discovery; the test fixture is kept
 * honest the other way round, by decoding its responses with unitycatalog-client's generated
 * models.
 */
public final class UnityApi {

  private UnityApi() {}

  /** {@code GET /catalogs} and {@code GET /catalogs/{name}}. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record CatalogInfo(String name, String id) {}

  /** Response of {@code GET /catalogs}. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record ListCatalogsResponse(
      List<CatalogInfo> catalogs, @JsonProperty("next_page_token") String nextPageToken) {}

  /** {@code GET /schemas?catalog_name=} items and {@code GET /schemas/{full_name}}. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record SchemaInfo(
      String name,
      @JsonProperty("catalog_name") String catalogName,
      @JsonProperty("full_name") String fullName,
      @JsonProperty("schema_id") String schemaId) {}

  /** Response of {@code GET /schemas}. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record ListSchemasResponse(
      List<SchemaInfo> schemas, @JsonProperty("next_page_token") String nextPageToken) {}

  /**
   * One column as Unity holds it; {@code type_json} is the Spark/Delta {@code StructField} JSON,
   * {@code partition_index} the column's place among the partition columns ({@code null} for a
   * column that does not partition the table).
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record ColumnInfo(
      String name,
      @JsonProperty("type_text") String typeText,
      @JsonProperty("type_json") String typeJson,
      @JsonProperty("type_name") String typeName,
      @JsonProperty("type_precision") Integer typePrecision,
      @JsonProperty("type_scale") Integer typeScale,
      Integer position,
      Boolean nullable,
      @JsonProperty("partition_index") Integer partitionIndex) {}

  /** {@code GET /tables} items and {@code GET /tables/{full_name}}. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record TableInfo(
      String name,
      @JsonProperty("catalog_name") String catalogName,
      @JsonProperty("schema_name") String schemaName,
      @JsonProperty("table_type") String tableType,
      @JsonProperty("data_source_format") String dataSourceFormat,
      List<ColumnInfo> columns,
      @JsonProperty("storage_location") String storageLocation,
      String comment,
      Map<String, String> properties,
      @JsonProperty("table_id") String tableId,
      @JsonProperty("view_definition") String viewDefinition) {

    /** A view in Unity's sense (a {@code VIEW} table type carrying SQL). */
    public boolean isView() {
      return "VIEW".equals(tableType);
    }

    /** A Delta table this provider exposes: managed or external, data source format DELTA. */
    public boolean isDeltaTable() {
      return ("MANAGED".equals(tableType) || "EXTERNAL".equals(tableType))
          && "DELTA".equals(dataSourceFormat);
    }
  }

  /** Response of {@code GET /tables}. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record ListTablesResponse(
      List<TableInfo> tables, @JsonProperty("next_page_token") String nextPageToken) {}

  /** Request of {@code POST /temporary-table-credentials}. */
  public record GenerateTemporaryTableCredential(
      @JsonProperty("table_id") String tableId, String operation) {}

  /** The AWS half of a temporary credential. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record AwsCredentials(
      @JsonProperty("access_key_id") String accessKeyId,
      @JsonProperty("secret_access_key") String secretAccessKey,
      @JsonProperty("session_token") String sessionToken) {

    @Override
    public String toString() {
      return "AwsCredentials[****]";
    }
  }

  /**
   * Response of {@code POST /temporary-table-credentials}: one of the cloud credentials, its expiry
   * in epoch milliseconds, and (newer servers) the storage URL it was issued for.
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record TemporaryCredentials(
      @JsonProperty("aws_temp_credentials") AwsCredentials awsTempCredentials,
      @JsonProperty("azure_user_delegation_sas") Map<String, Object> azureUserDelegationSas,
      @JsonProperty("gcp_oauth_token") Map<String, Object> gcpOauthToken,
      @JsonProperty("expiration_time") Long expirationTime,
      String url) {

    @Override
    public String toString() {
      return "TemporaryCredentials[expiration_time=" + expirationTime + ", url=" + url + "]";
    }
  }

  /** Unity's error body: {@code error_code} and {@code message}. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record ErrorResponse(@JsonProperty("error_code") String errorCode, String message) {}
}
