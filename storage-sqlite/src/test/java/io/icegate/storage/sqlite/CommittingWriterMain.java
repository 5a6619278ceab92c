package io.icegate.storage.sqlite;

import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KvStore;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Child process of {@link SqliteCrashSafetyTest}: commits numbered transactions into a store and
 * prints each number on stdout only after its commit returned, until it is killed.
 *
 * <p>Arguments: the store file and the first number. Each transaction writes two keys, {@code
 * (crash, a, n)} with 1 KiB and {@code (crash, b, n)} with 16 bytes, so that a kill in the middle
 * of a commit would show up as one key without the other. Exits by itself after {@link
 * #MAX_RUNTIME_MILLIS} in case the parent died without killing it.
 */
public final class CommittingWriterMain {

  static final Subspace A = KeySubspace.SCRATCH.get(Tuple.from("crash", "a"));
  static final Subspace B = KeySubspace.SCRATCH.get(Tuple.from("crash", "b"));
  static final long MAX_RUNTIME_MILLIS = 120_000;

  private CommittingWriterMain() {}

  public static void main(String[] args) {
    Path file = Path.of(args[0]);
    long first = Long.parseLong(args[1]);
    long deadline = System.currentTimeMillis() + MAX_RUNTIME_MILLIS;
    PrintStream out = System.out;
    byte[] big = new byte[1024];
    try (KvStore store = SqliteKvStore.open(file)) {
      for (long n = first; System.currentTimeMillis() < deadline; n++) {
        long number = n;
        Arrays.fill(big, (byte) number);
        store.run(tx -> {
          tx.set(A.pack(Tuple.from(number)), big);
          tx.set(B.pack(Tuple.from(number)), Tuple.from(number, "b").pack());
          return null;
        });
        out.println(number);
        out.flush();
      }
    }
  }
}
