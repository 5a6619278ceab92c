package io.icegate.storage.fdb;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.async.AsyncIterable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Stand-ins for fdb-java's {@link Database} and {@link Transaction}, because the real ones need the
 * native {@code libfdb_c}, which cannot be installed here (DESIGN.md). They do not imitate
 * FoundationDB's semantics: they record what the driver asks fdb-java for and answer what the test
 * scripted, so a test checks the driver's side of the boundary (arguments passed through, errors
 * mapped). FoundationDB's own behaviour is checked by {@code FdbKvStoreConformanceTest} against a
 * real cluster. Any fdb-java method the driver is not expected to call fails the test.
 */
final class ScriptedFdb {

  /** One call the driver made, with {@code snapshot} telling which reader it went through. */
  record Call(String method, boolean snapshot, List<Object> args) {
    byte[] bytes(int index) {
      return (byte[]) args.get(index);
    }
  }

  /** What the next transaction(s) will answer; each queue is consumed in order. */
  final Deque<Object> getAnswers = new ArrayDeque<>();
  final Deque<Object> rangeAnswers = new ArrayDeque<>();
  final Deque<Object> commitAnswers = new ArrayDeque<>();
  final List<Call> calls = new ArrayList<>();
  int transactionsCreated;
  int transactionsClosed;
  boolean databaseClosed;

  /** A failed future's cause, as the native client would deliver it. */
  static FDBException error(int code) {
    return new FDBException("scripted error " + code, code);
  }

  Database database() {
    InvocationHandler handler =
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "createTransaction":
              if (args != null && args.length > 0) {
                break;
              }
              transactionsCreated++;
              return transaction();
            case "close":
              databaseClosed = true;
              return null;
            default:
              break;
          }
          throw new UnsupportedOperationException("unexpected Database." + method.getName());
        };
    return (Database) proxy(Database.class, handler);
  }

  Transaction transaction() {
    ReadTransaction snapshot = (ReadTransaction) proxy(ReadTransaction.class, reader(true, null));
    return (Transaction) proxy(Transaction.class, reader(false, snapshot));
  }

  List<Call> calls(String method) {
    return calls.stream().filter(c -> c.method().equals(method)).toList();
  }

  private InvocationHandler reader(boolean isSnapshot, ReadTransaction snapshot) {
    return (proxy, method, args) -> {
      String name = method.getName();
      Object[] a = args == null ? new Object[0] : args;
      calls.add(new Call(name, isSnapshot, Arrays.asList(a)));
      switch (name) {
        case "get":
          return future(getAnswers.poll());
        case "getRange":
          if (a.length == 5 && a[0] instanceof byte[] && a[4] instanceof StreamingMode) {
            Object answer = rangeAnswers.poll();
            return rangeResult(answer);
          }
          break;
        case "snapshot":
          if (snapshot != null) {
            return snapshot;
          }
          break;
        case "set":
        case "clear":
          if (!isSnapshot && a[0] instanceof byte[]) {
            return null;
          }
          break;
        case "commit":
          if (!isSnapshot) {
            return future(commitAnswers.poll());
          }
          break;
        case "close":
          if (!isSnapshot) {
            transactionsClosed++;
            return null;
          }
          break;
        default:
          break;
      }
      throw new UnsupportedOperationException("unexpected Transaction." + name);
    };
  }

  @SuppressWarnings("unchecked")
  private static AsyncIterable<KeyValue> rangeResult(Object answer) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          if (method.getName().equals("asList")) {
            return future(answer == null ? List.of() : answer);
          }
          throw new UnsupportedOperationException("unexpected AsyncIterable." + method.getName());
        };
    return (AsyncIterable<KeyValue>) proxy(AsyncIterable.class, handler);
  }

  private static CompletableFuture<Object> future(Object answer) {
    return answer instanceof Throwable t
        ? CompletableFuture.failedFuture(t)
        : CompletableFuture.completedFuture(answer);
  }

  private static Object proxy(Class<?> type, InvocationHandler handler) {
    InvocationHandler withObjectMethods =
        (proxy, method, args) ->
            switch (method.getName()) {
              case "toString" -> "Scripted" + type.getSimpleName();
              case "hashCode" -> System.identityHashCode(proxy);
              case "equals" -> proxy == args[0];
              default -> handler.invoke(proxy, method, args);
            };
    return Proxy.newProxyInstance(
        ScriptedFdb.class.getClassLoader(), new Class<?>[] {type}, withObjectMethods);
  }
}
