package io.icegate.overlay.reconcile;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogCapabilities;
import io.icegate.access.client.CatalogCapability;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.client.CatalogClientFactory;
import io.icegate.access.client.CatalogClientProvider;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.CatalogObjectRef;
import io.icegate.access.model.ExternalIdentity;
import io.icegate.access.model.LoadedTable;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.TableFormat;
import io.icegate.access.model.UpstreamTable;
import io.icegate.access.model.UpstreamTableMetadata;
import io.icegate.access.model.UpstreamView;
import io.icegate.access.model.ViewRepresentation;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.storage.VendedStorageCredentials;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.types.Types;

/**
 * An upstream catalog held in memory and served at the catalog-access SPI boundary (a {@link
 * CatalogClientProvider} for {@link CatalogProtocol#ICEBERG_REST}), for the reconciler's seeded
 * sweeps only. The subject of those sweeps is the reconciler: thousands of runs against the HTTP
 * fixture ({@code IcebergRestFixture}, Iceberg's REST servlet over JDBC and s3proxy) would take
 * far longer than CI allows, so they stand on this; every behaviour they exercise is also shown
 * against the real fixture by example ({@code IdentityMovesTest}).
 *
 * <p>Objects carry a stable identity (a UUID, as Iceberg's {@code table-uuid} and view uuid) that
 * survives {@link #rename}; a table's load gives a schema, location and full Iceberg metadata of
 * its version (bumped by {@link #alter}), so capture and validation run as for a real table
 * without a snapshot. Thread-safe.
 */
final class InMemoryUpstream {

  /** One upstream table or view. */
  record Obj(CatalogObjectKind kind, String uuid, int version) {}

  /** Where an object lives: namespace segments and name. */
  record Path(List<String> namespace, String name) implements Comparable<Path> {
    Path {
      namespace = List.copyOf(namespace);
    }

    @Override
    public int compareTo(Path o) {
      return toString().compareTo(o.toString());
    }

    @Override
    public String toString() {
      return String.join(".", namespace) + "." + name;
    }
  }

  private static final Schema BASE = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()));

  private final TreeSet<List<String>> namespaces = new TreeSet<>(
      Comparator.comparing((List<String> p) -> String.join("\u0000", p)));
  private final TreeMap<Path, Obj> objects = new TreeMap<>();
  private final Map<Path, CatalogAccessException> loadFailures = new HashMap<>();
  private long seq;

  // ---- changes ------------------------------------------------------------------------------

  synchronized void createNamespace(List<String> path) {
    for (int depth = 1; depth <= path.size(); depth++) {
      namespaces.add(List.copyOf(path.subList(0, depth)));
    }
  }

  /** Drops an empty leaf namespace. */
  synchronized void dropNamespace(List<String> path) {
    if (objects.keySet().stream().anyMatch(p -> p.namespace().equals(path))
        || namespaces.stream().anyMatch(n -> n.size() > path.size()
            && n.subList(0, path.size()).equals(path))) {
      throw new IllegalStateException("namespace " + path + " is not empty");
    }
    namespaces.remove(path);
  }

  synchronized String create(CatalogObjectKind kind, Path path) {
    if (objects.containsKey(path)) {
      throw new IllegalStateException(path + " exists");
    }
    createNamespace(path.namespace());
    String uuid = new UUID(0x1ce6a7eL, ++seq).toString();
    objects.put(path, new Obj(kind, uuid, 1));
    return uuid;
  }

  synchronized void drop(Path path) {
    if (objects.remove(path) == null) {
      throw new IllegalStateException(path + " does not exist");
    }
  }

  /** Moves an object to a free path, keeping its identity (its namespace must exist). */
  synchronized void rename(Path from, Path to) {
    if (objects.containsKey(to) || !namespaces.contains(to.namespace())) {
      throw new IllegalStateException("cannot rename " + from + " to " + to);
    }
    Obj obj = objects.remove(from);
    if (obj == null) {
      throw new IllegalStateException(from + " does not exist");
    }
    objects.put(to, obj);
  }

  /** A new version of the object: its schema (or SQL) and metadata location change. */
  synchronized void alter(Path path) {
    Obj obj = objects.get(path);
    objects.put(path, new Obj(obj.kind(), obj.uuid(), obj.version() + 1));
  }

  /** Makes loading {@code path} fail with {@code failure}; {@code null} lifts it. */
  synchronized void failLoad(Path path, CatalogAccessException failure) {
    if (failure == null) {
      loadFailures.remove(path);
    } else {
      loadFailures.put(path, failure);
    }
  }

  synchronized Map<Path, Obj> objects() {
    return new TreeMap<>(objects);
  }

  synchronized List<List<String>> namespaces() {
    return new ArrayList<>(namespaces);
  }

  /** A factory whose only provider serves this upstream. */
  CatalogClientFactory factory() {
    return CatalogClientFactory.of(List.of(new Provider()));
  }

  // ---- what a client reads --------------------------------------------------------------------

  private synchronized List<NamespacePath> children(NamespacePath parent) {
    if (!parent.isRoot() && !namespaces.contains(parent.segments())) {
      throw new CatalogAccessException(CatalogAccessException.Code.NOT_FOUND,
          "namespace " + parent + " does not exist");
    }
    List<NamespacePath> out = new ArrayList<>();
    for (List<String> ns : namespaces) {
      if (ns.size() == parent.depth() + 1 && ns.subList(0, parent.depth())
          .equals(parent.segments())) {
        out.add(new NamespacePath(ns));
      }
    }
    return out;
  }

  private synchronized List<CatalogObjectRef> listed(NamespacePath ns,
      Set<CatalogObjectKind> kinds) {
    if (!namespaces.contains(ns.segments())) {
      throw new CatalogAccessException(CatalogAccessException.Code.NOT_FOUND,
          "namespace " + ns + " does not exist");
    }
    List<CatalogObjectRef> out = new ArrayList<>();
    objects.forEach((path, obj) -> {
      if (path.namespace().equals(ns.segments()) && kinds.contains(obj.kind())) {
        out.add(new CatalogObjectRef(obj.kind(), ns, path.name()));
      }
    });
    return out;
  }

  private synchronized Obj require(CatalogObjectKind kind, NamespacePath ns, String name) {
    Path path = new Path(ns.segments(), name);
    CatalogAccessException failure = loadFailures.get(path);
    if (failure != null) {
      throw failure;
    }
    Obj obj = objects.get(path);
    if (obj == null || obj.kind() != kind) {
      throw new CatalogAccessException(CatalogAccessException.Code.NOT_FOUND,
          kind + " " + path + " does not exist");
    }
    return obj;
  }

  private static Schema schema(int version) {
    return new Schema(Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "v" + version, Types.StringType.get()));
  }

  private static String location(Obj obj) {
    return "s3://upstream/" + obj.uuid();
  }

  private static String metadataLocation(Obj obj) {
    return location(obj) + "/metadata/v" + obj.version() + ".metadata.json";
  }

  private LoadedTable loaded(NamespacePath ns, String name) {
    Obj obj = require(CatalogObjectKind.TABLE, ns, name);
    Schema schema = schema(obj.version());
    UpstreamTable table = new UpstreamTable(ns, name, TableFormat.ICEBERG,
        ExternalIdentity.stable(obj.uuid()), metadataLocation(obj), location(obj),
        SchemaParser.toJson(schema), Map.of("version", Integer.toString(obj.version())),
        UpstreamTable.UNPARTITIONED_SPEC_JSON, UpstreamTable.UNSORTED_ORDER_JSON, 2);
    return new LoadedTable(table, () -> {
      TableMetadata metadata = TableMetadata.buildFrom(TableMetadata.newTableMetadata(schema,
              PartitionSpec.unpartitioned(), SortOrder.unsorted(), location(obj),
              new HashMap<>(Map.of("version", Integer.toString(obj.version())))))
          .assignUUID(obj.uuid()).discardChanges().build();
      return new UpstreamTableMetadata(metadataLocation(obj), TableMetadataParser.toJson(metadata));
    });
  }

  private UpstreamView view(NamespacePath ns, String name) {
    Obj obj = require(CatalogObjectKind.VIEW, ns, name);
    return new UpstreamView(ns, name, ExternalIdentity.stable(obj.uuid()),
        SchemaParser.toJson(BASE),
        List.of(new ViewRepresentation("spark", "SELECT id FROM base -- v" + obj.version())), ns,
        null, location(obj) + "/metadata/v" + obj.version() + ".metadata.json", Map.of());
  }

  private final class Provider implements CatalogClientProvider {
    @Override
    public CatalogProtocol protocol() {
      return CatalogProtocol.ICEBERG_REST;
    }

    @Override
    public CatalogCapabilities capabilities() {
      return CatalogCapabilities.of(CatalogCapability.HIERARCHICAL_NAMESPACES,
          CatalogCapability.TABLES, CatalogCapability.VIEW_LISTING,
          CatalogCapability.VIEW_METADATA, CatalogCapability.STABLE_TABLE_IDENTITY);
    }

    @Override
    public CatalogClient open(CatalogConnectionConfig config,
        ResolvedCatalogCredentials credentials, OutboundAddressPolicy policy) {
      return new Client(capabilities());
    }
  }

  private final class Client implements CatalogClient {
    private final CatalogCapabilities capabilities;

    Client(CatalogCapabilities capabilities) {
      this.capabilities = capabilities;
    }

    @Override
    public CatalogCapabilities capabilities() {
      return capabilities;
    }

    @Override
    public void validate() {}

    @Override
    public List<NamespacePath> listNamespaces(NamespacePath parent) {
      return children(parent);
    }

    @Override
    public List<CatalogObjectRef> listObjects(NamespacePath namespace,
        Set<CatalogObjectKind> kinds) {
      return listed(namespace, kinds);
    }

    @Override
    public UpstreamTable loadTable(NamespacePath namespace, String name) {
      return loaded(namespace, name).table();
    }

    @Override
    public LoadedTable loadTableWithMetadata(NamespacePath namespace, String name) {
      return loaded(namespace, name);
    }

    @Override
    public UpstreamTableMetadata loadTableMetadata(NamespacePath namespace, String name) {
      return loaded(namespace, name).metadata().orElseThrow();
    }

    @Override
    public UpstreamView loadView(NamespacePath namespace, String name) {
      return view(namespace, name);
    }

    @Override
    public Optional<VendedStorageCredentials> vendStorageCredentials(NamespacePath namespace,
        String name) {
      return Optional.empty();
    }

    @Override
    public void validateStorageAccess(UpstreamTable table, VendedStorageCredentials credentials) {
      throw new CatalogAccessException(CatalogAccessException.Code.UNSUPPORTED, "no storage");
    }

    @Override
    public void close() {}
  }
}
