package io.icegate.access.deltasharing;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import java.util.List;

/**
 * Whether a shared table may be asked for temporary credentials (seed 000's Delta Sharing rules, on
 * the protocol's "Access Modes" section).
 *
 * <ul>
 *   <li>{@code dir} among the modes: ask.
 *   <li>Modes stated without {@code dir} ({@code url} alone): refused by name with {@code
 *       UNSUPPORTED}. Presigned per-file URLs cannot be represented as storage credentials.
 *   <li>No modes stated: the protocol reads that as url only, but the reference server implements
 *       the credential endpoint while never sending the field, so holding to that reading would
 *       refuse every table of a server that would have answered. The request is therefore tried
 *       ({@link #UNSTATED}), unless the connection sets {@code delta.sharing.strict-access-modes},
 *       which restores the protocol's reading and refuses without asking.
 * </ul>
 */
enum AccessModes {
  /** The table offers directory access. */
  DIRECTORY,
  /** The table states no modes; ask, and read a refusal as "no directory access". */
  UNSTATED;

  static final String DIR = "dir";

  /**
   * @param table the table's display name for messages ({@code share.schema.table})
   * @param modes the stated modes, {@code null} when the server omitted them
   * @param strict the connection's {@code delta.sharing.strict-access-modes}
   * @throws CatalogAccessException {@code UNSUPPORTED} naming the table and its modes
   */
  static AccessModes decide(String table, List<String> modes, boolean strict) {
    if (modes == null) {
      if (strict) {
        throw new CatalogAccessException(
            Code.UNSUPPORTED,
            "Delta Sharing table "
                + table
                + " states no access modes, which the protocol reads as url access only, and "
                + SharingSettings.STRICT_ACCESS_MODES
                + "=true holds to that reading; only directory (dir) access can be vended");
      }
      return UNSTATED;
    }
    if (modes.stream().anyMatch(DIR::equalsIgnoreCase)) {
      return DIRECTORY;
    }
    throw new CatalogAccessException(
        Code.UNSUPPORTED,
        "Delta Sharing table "
            + table
            + " offers only "
            + modes
            + " access: its presigned per-file URLs cannot be represented as storage credentials;"
            + " the provider must share it with directory (dir) access");
  }
}
