package io.icegate.overlay.selection;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.model.NamespacePath;
import io.icegate.overlay.discovery.NamespaceOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The selection rules of seed 000 "Namespace selection" as properties over random upstream trees
 * and random selections. Segments come from a small alphabet with dots, case variants and Unicode
 * look-alikes (composed and decomposed é, ß next to SS), so that includes, excludes and tree paths
 * often share prefixes and differ only where the rules care.
 */
class NamespaceSelectionPropertyTest {

  private static final List<String> SEGMENTS = List.of(
      "a", "A", "b", "a.b", ".", "a b", "\u00df", "SS", "caf\u00e9", "cafe\u0301", "\u65e5\u672c");

  /** Not in the alphabet: a child no include or exclude can name. */
  private static final String FRESH = "fresh-segment";

  /** One upstream tree (closed under parents) and the raw, unnormalized lists of a selection. */
  record Case(List<NamespacePath> tree, List<NamespacePath> include, List<NamespacePath> exclude) {

    NamespaceSelection selection() {
      return new NamespaceSelection(include, exclude);
    }

    /** The tree, every listed path with its parents, and one unseen child of each: all probes. */
    List<NamespacePath> probes() {
      TreeSet<NamespacePath> all = new TreeSet<>(NamespaceOrder.INSTANCE);
      for (List<NamespacePath> paths : List.of(tree, include, exclude)) {
        for (NamespacePath path : paths) {
          all.addAll(withParents(path));
          all.add(path.child(FRESH));
        }
      }
      return List.copyOf(all);
    }
  }

  @Provide
  Arbitrary<Case> cases() {
    Arbitrary<NamespacePath> anyPath = paths();
    return anyPath.list().ofMaxSize(12).map(NamespaceSelectionPropertyTest::closeUnderParents)
        .flatMap(tree -> {
          // Half the listed paths come from the tree, so selections actually meet it.
          Arbitrary<NamespacePath> listed = tree.isEmpty()
              ? anyPath : Arbitraries.oneOf(anyPath, Arbitraries.of(tree));
          Arbitrary<List<NamespacePath>> list = listed.list().ofMaxSize(5);
          return list.flatMap(include -> list.map(exclude -> new Case(tree, include, exclude)));
        });
  }

  @Provide
  Arbitrary<NamespacePath> paths() {
    return Arbitraries.of(SEGMENTS).list().ofMinSize(1).ofMaxSize(4).map(NamespacePath::new);
  }

  @Property
  void exclusionWins(@ForAll("cases") Case c) {
    NamespaceSelection selection = c.selection();
    for (NamespacePath probe : c.probes()) {
      if (coveredBy(c.exclude(), probe)) {
        assertThat(selection.selects(probe)).as("%s is under an exclude", probe).isFalse();
        assertThat(selection.mayContainSelected(probe)).as("%s is under an exclude", probe)
            .isFalse();
      }
    }
  }

  @Property
  void includeSelectsItselfAndDescendantsUnlessExcluded(@ForAll("cases") Case c) {
    NamespaceSelection selection = c.selection();
    for (NamespacePath probe : c.probes()) {
      if (coveredBy(c.include(), probe) && !coveredBy(c.exclude(), probe)) {
        assertThat(selection.selects(probe)).as("%s is under an include", probe).isTrue();
      }
    }
  }

  @Property
  void withIncludesOnlyWhatAnIncludeCoversIsSelected(@ForAll("cases") Case c) {
    NamespaceSelection selection = c.selection();
    for (NamespacePath probe : c.probes()) {
      if (!c.include().isEmpty() && !coveredBy(c.include(), probe)) {
        assertThat(selection.selects(probe)).as("%s is under no include", probe).isFalse();
      }
    }
  }

  @Property
  void emptyIncludeSelectsEverythingNotExcluded(@ForAll("cases") Case c) {
    NamespaceSelection selection = new NamespaceSelection(List.of(), c.exclude());
    for (NamespacePath probe : c.probes()) {
      if (!probe.isRoot()) {
        assertThat(selection.selects(probe)).as("%s", probe)
            .isEqualTo(!coveredBy(c.exclude(), probe));
      }
    }
  }

  @Property
  void normalizationKeepsTheMeaningOfTheRawLists(@ForAll("cases") Case c) {
    NamespaceSelection selection = c.selection();
    for (NamespacePath probe : c.probes()) {
      boolean expected = !probe.isRoot() && !coveredBy(c.exclude(), probe)
          && (c.include().isEmpty() || coveredBy(c.include(), probe));
      assertThat(selection.selects(probe)).as("%s", probe).isEqualTo(expected);
    }
  }

  @Property
  void normalizationIsIdempotent(@ForAll("cases") Case c) {
    NamespaceSelection once = c.selection();
    NamespaceSelection twice =
        new NamespaceSelection(once.includeNamespaces(), once.excludeNamespaces());

    assertThat(twice).isEqualTo(once);
  }

  @Property
  void normalizedListsAreSortedAndFreeOfCoveredPaths(@ForAll("cases") Case c) {
    NamespaceSelection selection = c.selection();
    for (List<NamespacePath> list :
        List.of(selection.includeNamespaces(), selection.excludeNamespaces())) {
      assertThat(list).isSortedAccordingTo(NamespaceOrder.INSTANCE);
      for (int i = 0; i < list.size(); i++) {
        for (int j = 0; j < list.size(); j++) {
          if (i != j) {
            assertThat(list.get(i).contains(list.get(j)))
                .as("%s covers %s", list.get(i), list.get(j)).isFalse();
          }
        }
      }
    }
  }

  @Property
  void orderAndRepetitionOfInputPathsDoNotMatter(@ForAll("cases") Case c, @ForAll Random random) {
    NamespaceSelection original = c.selection();
    NamespaceSelection shuffled = new NamespaceSelection(
        shuffledWithRepeats(c.include(), random), shuffledWithRepeats(c.exclude(), random));

    assertThat(shuffled).isEqualTo(original);
    for (NamespacePath probe : c.probes()) {
      assertThat(shuffled.selects(probe)).as("%s", probe).isEqualTo(original.selects(probe));
      assertThat(shuffled.mayContainSelected(probe)).as("%s", probe)
          .isEqualTo(original.mayContainSelected(probe));
    }
  }

  @Property
  void normalizationOnlyKeepsInputPathsAsTheyWere(@ForAll("cases") Case c) {
    NamespaceSelection selection = c.selection();

    assertThat(c.include()).containsAll(selection.includeNamespaces());
    assertThat(c.exclude()).containsAll(selection.excludeNamespaces());
  }

  @Property
  void aDottedSegmentNeverStandsForNestedSegments(@ForAll("paths") NamespacePath nested) {
    Assume.that(nested.depth() >= 2);
    NamespacePath joined = NamespacePath.of(String.join(".", nested.segments()));
    NamespaceSelection includeNested = new NamespaceSelection(List.of(nested), List.of());
    NamespaceSelection includeJoined = new NamespaceSelection(List.of(joined), List.of());
    NamespaceSelection excludeJoined = new NamespaceSelection(List.of(), List.of(joined));

    assertThat(includeNested.selects(joined)).isFalse();
    assertThat(includeJoined.selects(nested)).isFalse();
    assertThat(excludeJoined.selects(nested)).isTrue();
    assertThat(new NamespaceSelection(List.of(nested, joined), List.of()).includeNamespaces())
        .containsExactlyInAnyOrder(nested, joined);
  }

  @Property
  void mayContainSelectedIsConsistentWithSelects(@ForAll("cases") Case c) {
    NamespaceSelection selection = c.selection();
    List<NamespacePath> probes = c.probes();
    List<NamespacePath> ancestors = new ArrayList<>(probes);
    ancestors.add(NamespacePath.root());
    for (NamespacePath ancestor : ancestors) {
      boolean anySelectedBelow = probes.stream()
          .anyMatch(probe -> ancestor.contains(probe) && selection.selects(probe));
      if (anySelectedBelow) {
        assertThat(selection.mayContainSelected(ancestor)).as("%s", ancestor).isTrue();
      }
      if (!selection.mayContainSelected(ancestor)) {
        assertThat(anySelectedBelow).as("%s", ancestor).isFalse();
      }
    }
  }

  /**
   * Pruning that always answered true would pass the consistency property; this one says a true
   * answer is never wasted: some namespace at or below would be selected if the upstream had it.
   */
  @Property
  void mayContainSelectedIsTrueOnlyWithAWitness(@ForAll("cases") Case c) {
    NamespaceSelection selection = c.selection();
    List<NamespacePath> ancestors = new ArrayList<>(c.probes());
    ancestors.add(NamespacePath.root());
    for (NamespacePath ancestor : ancestors) {
      if (selection.mayContainSelected(ancestor)) {
        List<NamespacePath> candidates = new ArrayList<>(c.include());
        candidates.add(ancestor);
        candidates.add(ancestor.child(FRESH));
        assertThat(candidates)
            .as("a selected namespace at or below %s", ancestor)
            .anyMatch(candidate -> ancestor.contains(candidate) && selection.selects(candidate));
      }
    }
  }

  private static boolean coveredBy(List<NamespacePath> paths, NamespacePath probe) {
    return paths.stream().anyMatch(path -> path.contains(probe));
  }

  private static List<NamespacePath> withParents(NamespacePath path) {
    List<NamespacePath> chain = new ArrayList<>();
    for (NamespacePath p = path; !p.isRoot(); p = p.parent()) {
      chain.add(p);
    }
    return chain;
  }

  private static List<NamespacePath> closeUnderParents(List<NamespacePath> paths) {
    TreeSet<NamespacePath> tree = new TreeSet<>(NamespaceOrder.INSTANCE);
    paths.forEach(path -> tree.addAll(withParents(path)));
    return List.copyOf(tree);
  }

  private static List<NamespacePath> shuffledWithRepeats(List<NamespacePath> paths, Random random) {
    List<NamespacePath> copy = new ArrayList<>(paths);
    for (NamespacePath path : paths) {
      if (random.nextBoolean()) {
        copy.add(path);
      }
    }
    Collections.shuffle(copy, random);
    return copy;
  }
}
