package io.icegate.core.repo;

import com.apple.foundationdb.Range;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceSpec;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.paging.PageTokens;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.ReadTransaction.Direction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Paged listing and counting of one kind in one partition, as range reads of the name index. A
 * page reads at most {@code pageSize + 1} index entries and {@code pageSize} records, whatever the
 * size of the scope; the extra entry only tells whether another page follows. A filtered page
 * reads past rejected entries, up to {@link #FILTER_SCAN_LIMIT} more.
 */
final class NameIndexListing<S extends ResourceSpec> {
  private static final Logger LOG = LoggerFactory.getLogger(NameIndexListing.class);
  /** Entries a filtered page examines beyond its size before it is returned short. */
  static final int FILTER_SCAN_LIMIT = 1000;
  /** Entries per range read when counting. */
  private static final int COUNT_CHUNK = 1000;

  private final PageTokens tokens;
  private final String partition;
  private final ResourceKind kind;
  private final BiFunction<ReadTransaction, String, Resource<S>> records;

  private NameIndexListing(
      PageTokens tokens,
      String partition,
      ResourceKind kind,
      BiFunction<ReadTransaction, String, Resource<S>> records) {
    this.tokens = tokens;
    this.partition = partition;
    this.kind = kind;
    this.records = records;
  }

  /** Creates listings bound to one store's page-token key. */
  record Factory(PageTokens tokens) {
    <S extends ResourceSpec> NameIndexListing<S> create(
        String partition,
        ResourceKind kind,
        BiFunction<ReadTransaction, String, Resource<S>> records) {
      return new NameIndexListing<>(tokens, partition, kind, records);
    }
  }

  Page<Resource<S>> page(ReadTransaction view, Listing listing, PageRequest request) {
    return page(view, listing, request, resource -> true);
  }

  /**
   * One page of the entries {@code keep} accepts (see {@code ResourceRepository.list} with a
   * filter). Each range read asks for one entry more than the page still needs, so with nothing
   * rejected this is the plain page: {@code pageSize + 1} entries, {@code pageSize} records.
   */
  Page<Resource<S>> page(ReadTransaction view, Listing listing, PageRequest request,
      Predicate<Resource<S>> keep) {
    byte[] base = KeyLayout.names(partition, kind, listing.scope()).getKey();
    Range range = KeyLayout.names(partition, kind, listing.scope(), listing.namePrefix());
    // The binding is the exact key range, which encodes kind, partition, scope and prefix: a token
    // of any other listing fails the MAC.
    String binding =
        "names:" + HexFormat.of().formatHex(range.begin) + ":" + HexFormat.of().formatHex(range.end);
    byte[] begin = range.begin;
    if (request.pageToken() != null) {
      byte[] last = concat(base, tokens.resume(binding, request.pageToken()));
      if (Arrays.compareUnsigned(last, range.begin) < 0
          || Arrays.compareUnsigned(last, range.end) >= 0) {
        throw new IcegateException(ErrorCode.INVALID_PAGE_TOKEN, null);
      }
      begin = concat(last, new byte[] {0}); // the first key after the last one returned
    }
    List<Resource<S>> items = new ArrayList<>(Math.min(request.pageSize(), 1024));
    byte[] lastExamined = null;
    int examined = 0;
    while (true) {
      int wanted = request.pageSize() - items.size() + 1;
      List<KeyValue> entries = view.getRange(begin, range.end, wanted, Direction.FORWARD);
      for (KeyValue entry : entries) {
        if (items.size() == request.pageSize()) {
          // the page is full and another entry follows it
          return new Page<>(items, token(binding, base, lastExamined));
        }
        lastExamined = entry.key();
        examined++;
        String id = new String(entry.value(), StandardCharsets.UTF_8);
        Resource<S> resource = records.apply(view, id);
        if (resource == null) {
          // Index and record are written in one transaction, so this is damage, not a race.
          LOG.warn("name index entry of {} {} has no record; skipped", kind.label(), id);
          continue;
        }
        if (keep.test(resource)) {
          items.add(resource);
        }
      }
      if (entries.size() < wanted) {
        return new Page<>(items, null); // the scope ends here
      }
      if (examined >= request.pageSize() + FILTER_SCAN_LIMIT) {
        return new Page<>(items, token(binding, base, lastExamined));
      }
      begin = concat(lastExamined, new byte[] {0});
    }
  }

  private String token(String binding, byte[] base, byte[] lastKey) {
    return tokens.issue(binding, Arrays.copyOfRange(lastKey, base.length, lastKey.length));
  }

  long count(ReadTransaction view, Listing listing) {
    Range range = KeyLayout.names(partition, kind, listing.scope(), listing.namePrefix());
    long count = 0;
    byte[] begin = range.begin;
    while (true) {
      List<KeyValue> chunk = view.getRange(begin, range.end, COUNT_CHUNK, Direction.FORWARD);
      count += chunk.size();
      if (chunk.size() < COUNT_CHUNK) {
        return count;
      }
      begin = concat(chunk.get(chunk.size() - 1).key(), new byte[] {0});
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
