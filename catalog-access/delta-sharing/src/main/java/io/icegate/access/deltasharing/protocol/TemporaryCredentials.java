package io.icegate.access.deltasharing.protocol;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.Map;

/**
 * The {@code credentials} member of the protocol's {@code temporary-table-credentials} response.
 * Exactly one of the cloud members is set; icegate reads only {@code awsTempCredentials}.
 *
 * @param location the directory the credentials grant read access to
 * @param awsTempCredentials {@code accessKeyId}, {@code secretAccessKey}, {@code sessionToken}
 * @param azureUserDelegationSas present for Azure locations
 * @param gcpOauthToken present for GCS locations
 * @param expirationTime expiry, epoch milliseconds (server time)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record TemporaryCredentials(
    String location,
    Map<String, String> awsTempCredentials,
    Map<String, String> azureUserDelegationSas,
    Map<String, String> gcpOauthToken,
    Long expirationTime) {

  /** Names only: the values are live secrets. */
  @Override
  public String toString() {
    return "TemporaryCredentials[location="
        + location
        + ", aws="
        + (awsTempCredentials == null ? null : new java.util.TreeSet<>(awsTempCredentials.keySet()))
        + ", expirationTime="
        + expirationTime
        + "]";
  }
}
