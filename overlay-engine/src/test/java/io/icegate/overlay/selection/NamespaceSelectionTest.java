package io.icegate.overlay.selection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.model.NamespacePath;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The documented edge cases of seed 000 "Namespace selection", one example each. */
class NamespaceSelectionTest {

  private static NamespacePath ns(String... segments) {
    return NamespacePath.of(segments);
  }

  private static NamespaceSelection selection(List<NamespacePath> include,
      List<NamespacePath> exclude) {
    return new NamespaceSelection(include, exclude);
  }

  @Test
  void emptyIncludeSelectsTheWholeTreeButNotTheRoot() {
    NamespaceSelection all = NamespaceSelection.all();

    assertThat(all.selects(ns("sales"))).isTrue();
    assertThat(all.selects(ns("sales", "emea", "2024"))).isTrue();
    assertThat(all.selects(NamespacePath.root())).isFalse();
    assertThat(all.mayContainSelected(NamespacePath.root())).isTrue();
  }

  @Test
  void includeSelectsItselfAndDescendantsOnly() {
    NamespaceSelection s = selection(List.of(ns("sales", "emea")), List.of());

    assertThat(s.selects(ns("sales", "emea"))).isTrue();
    assertThat(s.selects(ns("sales", "emea", "de"))).isTrue();
    assertThat(s.selects(ns("sales"))).isFalse();
    assertThat(s.selects(ns("sales", "apac"))).isFalse();
    assertThat(s.selects(ns("sales", "emeax"))).isFalse();
  }

  @Test
  void excludeWinsOverTheSameInclude() {
    NamespaceSelection s = selection(List.of(ns("sales")), List.of(ns("sales")));

    assertThat(s.selects(ns("sales"))).isFalse();
    assertThat(s.selects(ns("sales", "emea"))).isFalse();
    assertThat(s.mayContainSelected(ns("sales"))).isFalse();
    assertThat(s.mayContainSelected(NamespacePath.root())).isFalse();
  }

  @Test
  void excludeWinsOverADeeperIncludeBelowIt() {
    NamespaceSelection s = selection(
        List.of(ns("sales", "emea", "de"), ns("hr")), List.of(ns("sales", "emea")));

    assertThat(s.selects(ns("sales", "emea", "de"))).isFalse();
    assertThat(s.selects(ns("sales", "emea", "de", "x"))).isFalse();
    assertThat(s.selects(ns("hr"))).isTrue();
    // The include under the exclude is kept as stored, yet is no reason to descend into sales.
    assertThat(s.includeNamespaces()).containsExactly(ns("hr"), ns("sales", "emea", "de"));
    assertThat(s.mayContainSelected(ns("sales"))).isFalse();
    assertThat(s.mayContainSelected(NamespacePath.root())).isTrue();
  }

  @Test
  void excludeCarvesAHoleOutOfAnInclude() {
    NamespaceSelection s = selection(List.of(ns("sales")), List.of(ns("sales", "tmp")));

    assertThat(s.selects(ns("sales"))).isTrue();
    assertThat(s.selects(ns("sales", "emea"))).isTrue();
    assertThat(s.selects(ns("sales", "tmp"))).isFalse();
    assertThat(s.selects(ns("sales", "tmp", "scratch"))).isFalse();
    assertThat(s.mayContainSelected(ns("sales", "tmp"))).isFalse();
  }

  @Test
  void ancestorsOfAnIncludeAreWorthDescendingButNotSelected() {
    NamespaceSelection s = selection(List.of(ns("a", "b", "c")), List.of());

    assertThat(s.mayContainSelected(NamespacePath.root())).isTrue();
    assertThat(s.mayContainSelected(ns("a"))).isTrue();
    assertThat(s.mayContainSelected(ns("a", "b"))).isTrue();
    assertThat(s.selects(ns("a", "b"))).isFalse();
    assertThat(s.mayContainSelected(ns("a", "x"))).isFalse();
    assertThat(s.mayContainSelected(ns("b"))).isFalse();
  }

  @Test
  void segmentsAreCaseSensitive() {
    NamespaceSelection s = selection(List.of(ns("Sales")), List.of(ns("Sales", "EMEA")));

    assertThat(s.selects(ns("Sales"))).isTrue();
    assertThat(s.selects(ns("sales"))).isFalse();
    assertThat(s.selects(ns("SALES"))).isFalse();
    assertThat(s.selects(ns("Sales", "emea"))).isTrue();
    assertThat(s.selects(ns("Sales", "EMEA"))).isFalse();
  }

  @Test
  void aDottedSegmentIsOneNamespaceNotTwo() {
    NamespaceSelection dotted = selection(List.of(ns("a.b")), List.of());
    NamespaceSelection nested = selection(List.of(ns("a", "b")), List.of());

    assertThat(dotted.selects(ns("a.b"))).isTrue();
    assertThat(dotted.selects(ns("a", "b"))).isFalse();
    assertThat(dotted.mayContainSelected(ns("a"))).isFalse();
    assertThat(nested.selects(ns("a.b"))).isFalse();
    assertThat(nested.selects(ns("a", "b"))).isTrue();
  }

  @Test
  void normalizationNeitherMergesNorSplitsSegments() {
    NamespaceSelection s = selection(List.of(ns("a", "b"), ns("a.b"), ns("a.b", "c")), List.of());

    assertThat(s.includeNamespaces()).containsExactly(ns("a", "b"), ns("a.b"));
    assertThat(s.includeNamespaces().get(1).segments()).containsExactly("a.b");
  }

  @Test
  void normalizationDropsDuplicatesAndCoveredPathsAndSorts() {
    NamespaceSelection s = selection(
        List.of(ns("sales", "emea"), ns("hr"), ns("sales"), ns("hr"), ns("sales", "apac", "jp")),
        List.of(ns("sales", "tmp", "x"), ns("sales", "tmp"), ns("sales", "tmp")));

    assertThat(s.includeNamespaces()).containsExactly(ns("hr"), ns("sales"));
    assertThat(s.excludeNamespaces()).containsExactly(ns("sales", "tmp"));
    assertThat(s).isEqualTo(selection(List.of(ns("sales"), ns("hr")), List.of(ns("sales", "tmp"))));
  }

  @Test
  void aSiblingWithACommonPrefixIsNotCovered() {
    NamespaceSelection s = selection(List.of(ns("a"), ns("ab"), ns("a", "b")), List.of());

    assertThat(s.includeNamespaces()).containsExactly(ns("a"), ns("ab"));
  }

  @Test
  void unicodeSegmentsAreComparedByCodeUnitsWithoutNormalization() {
    String composed = "caf\u00e9";
    String decomposed = "cafe\u0301";
    NamespaceSelection s = selection(List.of(ns(composed)), List.of());

    assertThat(s.selects(ns(composed, "x"))).isTrue();
    assertThat(s.selects(ns(decomposed))).isFalse();
    assertThat(selection(List.of(ns(composed), ns(decomposed)), List.of()).includeNamespaces())
        .hasSize(2);
  }

  @Test
  void emptyPathIsRefusedNamingItsPosition() {
    assertThatThrownBy(() -> NamespaceSelection.of(List.of(List.of("a"), List.of()), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("include_namespaces[1]")
        .hasMessageContaining("empty path");
    assertThatThrownBy(() -> selection(List.of(), List.of(ns("a"), ns("b"), NamespacePath.root())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exclude_namespaces[2]")
        .hasMessageContaining("empty path");
  }

  @Test
  void emptySegmentIsRefusedNamingItsPosition() {
    assertThatThrownBy(() -> NamespaceSelection.of(List.of(), List.of(List.of("a", ""))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exclude_namespaces[0][1]")
        .hasMessageContaining("empty segment");
  }

  @Test
  void nullsAreRefusedNamingTheirPosition() {
    List<String> withNull = new ArrayList<>(List.of("a"));
    withNull.add(null);
    assertThatThrownBy(() -> NamespaceSelection.of(List.of(withNull), List.of()))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("include_namespaces[0][1]");
    assertThatThrownBy(() -> NamespaceSelection.of(null, List.of()))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("include_namespaces");
  }

  @Test
  void factoryAndConstructorAgree() {
    assertThat(NamespaceSelection.of(List.of(List.of("a", "b.c")), List.of(List.of("a", "b.c", "d"))))
        .isEqualTo(selection(List.of(ns("a", "b.c")), List.of(ns("a", "b.c", "d"))));
  }

  @Test
  void listsAreImmutable() {
    NamespaceSelection s = selection(new ArrayList<>(List.of(ns("a"))), List.of());

    assertThatThrownBy(() -> s.includeNamespaces().add(ns("b")))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
