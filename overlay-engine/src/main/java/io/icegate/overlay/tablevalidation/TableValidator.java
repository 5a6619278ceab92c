package io.icegate.overlay.tablevalidation;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.storage.VendedStorageCredentials;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KvStoreException;
import io.icegate.core.store.Transaction;
import io.icegate.filecheck.DataFileCheck;
import io.icegate.filecheck.FileProblem;
import io.icegate.filecheck.ValidationFileIO;
import io.icegate.overlay.generated.CatalogFiles;
import io.icegate.overlay.generated.DeltaRefusal;
import io.icegate.overlay.generated.GeneratedFiles;
import io.icegate.overlay.store.capture.CapturePointers;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.validation.TableValidations;
import io.icegate.overlay.store.validation.ValidationError;
import io.icegate.overlay.store.validation.ValidationOutcome;
import io.icegate.overlay.store.validation.ValidationRecords;
import io.icegate.overlay.store.validation.ValidationState;
import io.icegate.overlay.store.validation.ValidationStatus;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.io.FileIO;

/**
 * Validation of captured managed Tables (issue 10, "Validation"): reads a Table's current
 * capture, checks every data and delete file of its current snapshot ({@link DataFileCheck})
 * through a FileIO holding only what the upstream vended for that Table ({@link
 * ValidationFileIO}), and publishes the errors found ({@link TableValidations#publish}), one per
 * bad file. A Table whose current snapshot is absent has no file to check and validates clean
 * without asking the upstream for anything. When the upstream vends nothing usable for a Table
 * with files, that is the Table's one error: there is no fallback to other credentials.
 *
 * <p>An upstream that cannot be reached (a retryable failure), or a Table gone upstream, is a
 * warning and publishes nothing: the Table stays pending until the next reconcile or revalidate.
 * Thread-safe.
 */
public final class TableValidator {
  /** The table format of a Table whose provenance names none. */
  private static final String ICEBERG = "ICEBERG";
  private static final String DELTA = "DELTA";
  private static final ValidationRecords RECORDS = new ValidationRecords();
  private static final CapturePointers POINTERS = new CapturePointers();
  private static final int CLEAN_BATCH = 100;

  private final Repositories repositories;
  private final TableValidations validations;
  private final Captures captures;
  private final OutboundAddressPolicy policy;
  private final boolean allowLocalFiles;
  private final int concurrency;
  private final CatalogFiles catalogFiles;
  private final FileScope scope;

  /**
   * Counts and warnings of validating several Tables.
   *
   * @param validated Tables whose validation published with no error (VALID)
   * @param failed Tables whose validation published errors, or could not run (each a warning)
   * @param warnings one line per failed Table
   */
  public record Result(long validated, long failed, List<String> warnings) {
    public Result {
      warnings = List.copyOf(warnings);
    }

    /** Nothing validated. */
    public static final Result NONE = new Result(0, 0, List.of());
  }

  /** What validating one Table did. */
  public sealed interface Outcome {
    /** One line for a report. */
    String summary();

    /** Published: {@code status} is the Table's new validation. */
    record Published(ValidationStatus status, String displayPath) implements Outcome {
      @Override
      public String summary() {
        return "table " + displayPath + ": " + status.errorCount() + " validation error(s)";
      }
    }

    /** Nothing published, because {@code reason}. */
    record NotPublished(String reason) implements Outcome {
      @Override
      public String summary() {
        return reason;
      }
    }
  }

  /**
   * @param policy applied to the object-store endpoint's addresses, as to catalogs
   * @param allowLocalFiles the server setting {@code --allow-local-files}: whether {@code file:}
   *     locations may be read
   * @param concurrency Tables validated at once (at least 1)
   */
  public TableValidator(Repositories repositories, OutboundAddressPolicy policy,
      boolean allowLocalFiles, int concurrency) {
    this(repositories, policy, allowLocalFiles, concurrency, CatalogFiles.LOCAL);
  }

  /**
   * @param catalogFiles reads the files Delta capture generated under a Catalog's warehouse
   */
  public TableValidator(Repositories repositories, OutboundAddressPolicy policy,
      boolean allowLocalFiles, int concurrency, CatalogFiles catalogFiles) {
    this(repositories, policy, allowLocalFiles, concurrency, catalogFiles, FileScope.ALL);
  }

  /**
   * @param scope which files of a captured Delta table are checked: {@link FileScope#CHANGED}
   *     checks incrementally where the capture's stored change record allows; {@link
   *     FileScope#ALL} every file (revalidation)
   */
  public TableValidator(Repositories repositories, OutboundAddressPolicy policy,
      boolean allowLocalFiles, int concurrency, CatalogFiles catalogFiles, FileScope scope) {
    this.scope = Objects.requireNonNull(scope, "scope");
    this.catalogFiles = Objects.requireNonNull(catalogFiles, "catalogFiles");
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.validations = new TableValidations(repositories);
    this.captures = new Captures(repositories);
    this.policy = Objects.requireNonNull(policy, "policy");
    this.allowLocalFiles = allowLocalFiles;
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be at least 1");
    }
    this.concurrency = concurrency;
  }

  /** Whether {@code file:} locations may be read (the server's {@code --allow-local-files}). */
  public boolean allowLocalFiles() {
    return allowLocalFiles;
  }

  /** Those of {@code tableIds} that have a capture (anything to validate). */
  public List<String> captured(String accountId, List<String> tableIds) {
    return repositories.store().read(tx -> tableIds.stream()
        .filter(id -> POINTERS.get(tx, accountId, id).isPresent()).toList());
  }

  /**
   * Those of {@code tableIds} whose current capture has no validation yet (never validated, or
   * captured again since): what a run validates after capturing.
   */
  public List<String> pending(String accountId, List<String> tableIds) {
    return repositories.store().read(tx -> {
      List<String> pending = new ArrayList<>();
      for (String tableId : tableIds) {
        if (POINTERS.get(tx, accountId, tableId).isEmpty()) {
          continue; // nothing captured: nothing to validate
        }
        Optional<ValidationStatus> status = validations.status(tx, accountId, tableId);
        if (status.isEmpty() || status.get().state() == ValidationState.PENDING) {
          pending.add(tableId);
        }
      }
      return pending;
    });
  }

  /**
   * Validates {@code tableIds} (all of one Integration) on up to {@code concurrency} threads,
   * every publication fenced by {@code fence}. The upstream client is opened by {@code open} only
   * when some Table needs credentials vended, and closed before this returns.
   *
   * @throws RuntimeException what {@code fence} throws (a superseded run stops the step)
   */
  public Result validate(String accountId, List<String> tableIds, Resource<Integration> integration,
      Supplier<CatalogClient> open, Consumer<Transaction> fence) {
    if (tableIds.isEmpty()) {
      return Result.NONE;
    }
    LazyClient client = new LazyClient(open);
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(concurrency, tableIds.size()));
    try (client) {
      List<Future<Outcome>> futures = new ArrayList<>();
      List<Subject> cleanSubjects = java.util.Collections.synchronizedList(new ArrayList<>());
      for (String tableId : tableIds) {
        futures.add(pool.submit(() -> {
          try {
            Assessed assessed = assess(accountId, tableId, integration, client::get);
            if (assessed instanceof Assessed.Clean clean) {
              cleanSubjects.add(clean.subject());
              return null; // published below, many per transaction
            }
            return publish(accountId, assessed, fence);
          } catch (IcegateException | KvStoreException e) {
            throw e; // a stale run, a fence, the store: the step stops
          } catch (RuntimeException e) {
            // one table's surprise (unparsable metadata, a provider bug) is that table's warning
            return new Outcome.NotPublished("table " + tableId + " not validated: "
                + e.getClass().getName());
          }
        }));
      }
      long validated = 0;
      long failed = 0;
      List<String> warnings = new ArrayList<>();
      List<Outcome> outcomes = new ArrayList<>();
      for (Future<Outcome> future : futures) {
        Outcome outcome = join(future);
        if (outcome != null) {
          outcomes.add(outcome);
        }
      }
      outcomes.addAll(publishClean(accountId, cleanSubjects, fence));
      for (Outcome outcome : outcomes) {
        if (outcome instanceof Outcome.Published p
            && p.status().state() == ValidationState.VALID) {
          validated++;
        } else {
          failed++;
          warnings.add(outcome.summary());
        }
      }
      return new Result(validated, failed, warnings);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Validates table {@code tableId}'s current capture now, whatever its status.
   *
   * @param fence asserted first in every publishing transaction
   * @throws RuntimeException what {@code fence} throws
   */
  public Outcome validateOne(String accountId, String tableId, Resource<Integration> integration,
      Supplier<CatalogClient> client, Consumer<Transaction> fence) {
    return publish(accountId, assess(accountId, tableId, integration, client), fence);
  }

  /** Reads and checks one Table; publishes nothing. */
  private Assessed assess(String accountId, String tableId, Resource<Integration> integration,
      Supplier<CatalogClient> client) {
    // Each reason on its own (issue 24): one message for gone, unmanaged and uncaptured tables
    // left an admin revalidating a hidden table unable to tell which held. Delta tables are
    // validated like Iceberg ones, on their capture (issue 26).
    record Read(Optional<Resource<Table>> table, Optional<Captures.Capture> capture,
        Optional<ValidationStatus> expected) {}
    Read read = repositories.store().read(tx -> new Read(
        repositories.tables(accountId).get(tx, tableId),
        captures.read(tx, accountId, tableId), RECORDS.pointer(tx, accountId, tableId)));
    if (read.table().isEmpty()) {
      return notPublished("table " + tableId + " is gone: nothing to validate");
    }
    Table spec = read.table().get().spec();
    String display = String.join(".", spec.namespace()) + "." + spec.name();
    if (!spec.managed()) {
      return notPublished("table " + display + " is not managed by an overlay: nothing to "
          + "validate");
    }
    if (read.capture().isEmpty()) {
      return notPublished("table " + display + " is not captured yet: nothing to validate");
    }
    Subject subject = new Subject(read.table().get(), read.capture().get(), read.expected());
    List<ValidationError> errors;
    try {
      errors = check(subject, integration, client);
    } catch (Unpublishable e) {
      return new Assessed.Done(new Outcome.NotPublished(e.getMessage()));
    }
    return errors.isEmpty() ? new Assessed.Clean(subject) : new Assessed.Failing(subject, errors);
  }

  /** Publishes one assessed Table on its own. */
  private Outcome publish(String accountId, Assessed assessed, Consumer<Transaction> fence) {
    if (assessed instanceof Assessed.Done done) {
      return done.outcome();
    }
    Subject subject;
    List<ValidationError> errors;
    if (assessed instanceof Assessed.Failing failing) {
      subject = failing.subject();
      errors = failing.errors();
    } else {
      subject = ((Assessed.Clean) assessed).subject();
      errors = List.of();
    }
    return outcome(subject, validations.publish(accountId, subject.table().id(),
        subject.expected(), subject.capture().pointer().captureGeneration(), errors, fence));
  }

  /**
   * Publishes clean validations {@value #CLEAN_BATCH} Tables per fenced transaction: most Tables
   * of a reconcile validate clean (a Table without a snapshot always does), and one transaction
   * each dominated a large initial reconcile (issue 8's bench).
   */
  private List<Outcome> publishClean(String accountId, List<Subject> subjects,
      Consumer<Transaction> fence) {
    List<Outcome> outcomes = new ArrayList<>();
    for (int from = 0; from < subjects.size(); from += CLEAN_BATCH) {
      List<Subject> batch = subjects.subList(from, Math.min(subjects.size(), from + CLEAN_BATCH));
      List<TableValidations.CleanCandidate> candidates = new ArrayList<>();
      for (Subject subject : batch) {
        candidates.add(new TableValidations.CleanCandidate(subject.table().id(),
            subject.expected(), subject.capture().pointer().captureGeneration()));
      }
      List<ValidationOutcome> published = validations.publishClean(accountId, candidates, fence);
      for (int i = 0; i < batch.size(); i++) {
        outcomes.add(outcome(batch.get(i), published.get(i)));
      }
    }
    return outcomes;
  }

  private static Outcome outcome(Subject subject, ValidationOutcome outcome) {
    if (outcome instanceof ValidationOutcome.Published p) {
      return new Outcome.Published(p.status(), subject.displayPath());
    }
    return new Outcome.NotPublished(((ValidationOutcome.Skipped) outcome).reason());
  }

  /** What reading and checking one Table found, before anything is published. */
  private sealed interface Assessed {
    /** Nothing to publish: {@code outcome} says why. */
    record Done(Outcome outcome) implements Assessed {}

    /** Every file conforms (or there is no snapshot). */
    record Clean(Subject subject) implements Assessed {}

    /** {@code errors}, all of this Table. */
    record Failing(Subject subject, List<ValidationError> errors) implements Assessed {}
  }

  /** Every error of the subject's current snapshot; empty when it conforms. */
  private List<ValidationError> check(Subject subject, Resource<Integration> integration,
      Supplier<CatalogClient> client) {
    TableMetadata metadata = TableMetadataParser.fromJson(
        new String(subject.capture().metadataJson(), StandardCharsets.UTF_8));
    Optional<DeltaRefusal.Refusal> refusal = DeltaRefusal.of(metadata);
    if (refusal.isPresent()) {
      return List.of(subject.error(refusal.get().commitFile(), refusal.get().reason()));
    }
    if (metadata.currentSnapshot() == null) {
      return List.of();
    }
    Optional<VendedStorageCredentials> vended = Optional.empty();
    if (!local(metadata.location())) {
      Provenance provenance = subject.table().spec().provenance();
      try {
        vended = client.get().vendStorageCredentials(
            new NamespacePath(provenance.upstreamNamespace()), provenance.upstreamName());
      } catch (CatalogAccessException e) {
        if (e.retryable() || e.code() == CatalogAccessException.Code.NOT_FOUND
            || e.code() == CatalogAccessException.Code.CONNECTION_FAILED) {
          throw new Unpublishable("table " + subject.displayPath() + " not validated: the "
              + "upstream failed to vend credentials (" + e.code() + "); retry later");
        }
        return List.of(subject.error(metadata.location(), "the upstream vends no usable storage "
            + "credentials for this table (" + e.code() + "); nothing else is used"));
      }
    }
    ValidationFileIO.Opened opened = ValidationFileIO.open(metadata.location(), vended,
        storageSettings(integration.spec()), allowLocalFiles, policy);
    if (opened instanceof ValidationFileIO.Refused refused) {
      return List.of(subject.error(refused.problem()));
    }
    try (ValidationFileIO io = ((ValidationFileIO.Ready) opened).io()) {
      FileIO files = io;
      if (subject.delta()) {
        // a captured Delta table: its manifests and delete files are icegate's, under the
        // Catalog's warehouse; its data files are the upstream's, read with what it vended
        Optional<Resource<Catalog>> catalog = repositories.catalogs(subject.table().accountId())
            .get(subject.table().spec().catalogId());
        if (catalog.isEmpty()) {
          throw new Unpublishable("table " + subject.displayPath() + " not validated: its "
              + "Catalog is gone");
        }
        try {
          files = GeneratedFiles.routing(
              GeneratedFiles.location(catalog.get(), subject.table().id()),
              catalogFiles.forCatalog(catalog.get()), io);
        } catch (UnsupportedOperationException e) {
          return List.of(subject.error(metadata.location(), "the generated files of this Delta "
              + "table cannot be read: " + e.getMessage()));
        }
      }
      // in manifest order, so a revalidation of the same files lists its errors the same way
      List<FileProblem> problems = new ArrayList<>(DataFileCheck.checkOnly(metadata, files,
          DataFileCheck.DEFAULT_PARALLELISM, subject.delta()
              ? DeltaFileChecks.which(scope, subject.capture(), subject.expected())
              : file -> true));
      if (subject.delta()) {
        problems.addAll(DeltaFileChecks.vacuumed(metadata, files));
      }
      return problems.stream().map(subject::error).toList();
    }
  }

  /**
   * The non-secret S3 settings of the Integration's connection (endpoint, region, path style),
   * which vended properties override; keys never come from here.
   */
  private static Map<String, String> storageSettings(Integration integration) {
    Map<String, String> settings = new java.util.HashMap<>();
    for (String name : List.of(VendedStorageCredentials.S3_ENDPOINT,
        VendedStorageCredentials.S3_REGION, VendedStorageCredentials.S3_PATH_STYLE_ACCESS)) {
      String value = integration.properties().get(name);
      if (value != null) {
        settings.put(name, value);
      }
    }
    return settings;
  }

  /** Whether {@code location} is on the server's own disk ({@code file:} or a plain path). */
  static boolean local(String location) {
    int colon = location.indexOf(':');
    int slash = location.indexOf('/');
    return colon <= 0 || (slash >= 0 && slash < colon)
        || location.substring(0, colon).equalsIgnoreCase("file");
  }

  private static Outcome join(Future<Outcome> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while validating tables", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** A Table read for validation: its record, its current capture, its stored validation. */
  private static Assessed notPublished(String reason) {
    return new Assessed.Done(new Outcome.NotPublished(reason));
  }

  private record Subject(Resource<Table> table, Captures.Capture capture,
      Optional<ValidationStatus> expected) {

    String displayPath() {
      Table spec = table.spec();
      return String.join(".", spec.namespace()) + "." + spec.name();
    }

    /** Whether the Table is a captured Delta table (its generated files under the warehouse). */
    boolean delta() {
      return DELTA.equals(format());
    }

    /** The upstream table format, upper case; {@code ICEBERG} when the provenance names none. */
    String format() {
      String format = table.spec().provenance().tableFormat();
      return format == null ? ICEBERG : format.toUpperCase(Locale.ROOT);
    }

    ValidationError error(FileProblem problem) {
      return new ValidationError(table.id(), displayPath(), format(), problem.filePath(),
          problem.message());
    }

    ValidationError error(String filePath, String message) {
      return new ValidationError(table.id(), displayPath(), format(), filePath, message);
    }
  }

  /** The Table cannot be validated now; a later attempt may succeed. */
  private static final class Unpublishable extends RuntimeException {
    Unpublishable(String message) {
      super(message, null, false, false);
    }
  }
}
