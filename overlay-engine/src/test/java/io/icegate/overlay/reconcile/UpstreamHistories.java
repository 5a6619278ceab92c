package io.icegate.overlay.reconcile;

import io.icegate.access.model.CatalogObjectKind;
import io.icegate.overlay.reconcile.InMemoryUpstream.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seeded generator of upstream histories for {@link InMemoryUpstream}: renames, cycles of
 * paths of any length (swaps, rotations, tables and views mixed), moves across namespaces, whole
 * namespace moves, drops, creates, re-creates under a dropped name with a new identity, and new
 * versions. Names and namespaces come from small pools, so paths are reused often. Every change
 * is logged, so a failing seed can be read back.
 */
final class UpstreamHistories {
  /** Namespaces the generator uses; {@code c} and {@code c.y} lie outside a narrowed selection. */
  static final List<List<String>> NAMESPACES = List.of(List.of("a"), List.of("a", "x"),
      List.of("b"), List.of("c"), List.of("c", "y"));
  private static final int NAMES = 6;

  private final Random random;
  private final InMemoryUpstream upstream;
  private final List<String> log = new ArrayList<>();
  private int temp;

  UpstreamHistories(Random random, InMemoryUpstream upstream) {
    this.random = random;
    this.upstream = upstream;
  }

  List<String> log() {
    return log;
  }

  /** A first state of 2 to 9 objects. */
  void initial() {
    int n = 2 + random.nextInt(8);
    for (int i = 0; i < n; i++) {
      create();
    }
  }

  /** One step of 1 to 6 random changes. */
  void step() {
    int n = 1 + random.nextInt(6);
    for (int i = 0; i < n; i++) {
      switch (random.nextInt(9)) {
        case 0 -> renameWithin();
        case 1 -> moveAcross();
        case 2, 3 -> cycle(2 + random.nextInt(4));
        case 4 -> drop();
        case 5 -> create();
        case 6 -> recreate();
        case 7 -> moveNamespace();
        default -> alter();
      }
    }
  }

  private List<Path> paths() {
    return new ArrayList<>(upstream.objects().keySet());
  }

  private Path freePath(List<String> namespace) {
    for (int attempt = 0; attempt < 20; attempt++) {
      Path p = new Path(namespace, "n" + random.nextInt(NAMES));
      if (!upstream.objects().containsKey(p)) {
        return p;
      }
    }
    return new Path(namespace, "n" + NAMES + "_" + (temp++));
  }

  private List<String> someNamespace() {
    return NAMESPACES.get(random.nextInt(NAMESPACES.size()));
  }

  private void create() {
    CatalogObjectKind kind = random.nextInt(3) == 0 ? CatalogObjectKind.VIEW
        : CatalogObjectKind.TABLE;
    Path p = freePath(someNamespace());
    upstream.create(kind, p);
    log.add("create " + kind + " " + p);
  }

  private Path pick() {
    List<Path> all = paths();
    return all.isEmpty() ? null : all.get(random.nextInt(all.size()));
  }

  private void renameWithin() {
    Path from = pick();
    if (from != null) {
      Path to = freePath(from.namespace());
      upstream.rename(from, to);
      log.add("rename " + from + " -> " + to);
    }
  }

  private void moveAcross() {
    Path from = pick();
    if (from != null) {
      List<String> ns = someNamespace();
      upstream.createNamespace(ns);
      Path to = freePath(ns);
      upstream.rename(from, to);
      log.add("move " + from + " -> " + to);
    }
  }

  /** Rotates the paths of {@code length} objects: each takes the next one's path. */
  private void cycle(int length) {
    List<Path> all = paths();
    java.util.Collections.shuffle(all, random);
    List<Path> ring = all.subList(0, Math.min(length, all.size()));
    if (ring.size() < 2) {
      return;
    }
    List<Path> aside = new ArrayList<>();
    for (Path p : ring) {
      Path t = new Path(p.namespace(), "tmp" + (temp++));
      upstream.rename(p, t);
      aside.add(t);
    }
    for (int i = 0; i < ring.size(); i++) {
      upstream.rename(aside.get(i), ring.get((i + 1) % ring.size()));
    }
    log.add("cycle " + ring);
  }

  private void drop() {
    Path p = pick();
    if (p != null) {
      upstream.drop(p);
      log.add("drop " + p);
    }
  }

  /** Drops an object and creates a new one (new identity, maybe another kind) at its path. */
  private void recreate() {
    Path p = pick();
    if (p != null) {
      upstream.drop(p);
      CatalogObjectKind kind = random.nextBoolean() ? CatalogObjectKind.VIEW
          : CatalogObjectKind.TABLE;
      upstream.create(kind, p);
      log.add("recreate " + kind + " " + p);
    }
  }

  /** Moves every object of one namespace to another and drops the emptied namespace. */
  private void moveNamespace() {
    List<String> from = someNamespace();
    List<String> to = someNamespace();
    if (from.equals(to)) {
      return;
    }
    upstream.createNamespace(to);
    for (Path p : paths()) {
      if (p.namespace().equals(from)) {
        upstream.rename(p, freePath(to));
      }
    }
    boolean leaf = upstream.namespaces().stream().noneMatch(n -> n.size() > from.size()
        && n.subList(0, from.size()).equals(from));
    if (leaf && upstream.namespaces().contains(from)) {
      upstream.dropNamespace(from);
    }
    log.add("move namespace " + from + " -> " + to);
  }

  private void alter() {
    Path p = pick();
    if (p != null) {
      upstream.alter(p);
      log.add("alter " + p);
    }
  }
}
