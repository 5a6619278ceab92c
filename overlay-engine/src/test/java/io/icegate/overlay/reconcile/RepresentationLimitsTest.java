package io.icegate.overlay.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.model.CatalogObjectKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * tryout: an upstream namespace named with a lone surrogate (an Iceberg REST listing answering
 * {@code ["b\\ud800"]}) passed these checks and failed the reconcile with 500 INTERNAL when its key
 * was encoded; it is held NOT_REPRESENTABLE at discovery like a control character.
 */
class RepresentationLimitsTest {

  @Test
  void aLoneSurrogateInAnUpstreamNameIsNotRepresentableAndAPairIs() {
    assertThat(RepresentationLimits.namespaceProblem(List.of("ok", "b\ud800")))
        .contains("lone surrogate");
    assertThat(RepresentationLimits.nameProblem(CatalogObjectKind.TABLE, "t\udc00"))
        .contains("lone surrogate");
    assertThat(RepresentationLimits.nameProblem(CatalogObjectKind.VIEW, "\ud83d\ud83d"))
        .contains("lone surrogate");
    assertThat(RepresentationLimits.namespaceProblem(List.of("smile-\ud83d\ude00"))).isNull();
    assertThat(RepresentationLimits.nameProblem(CatalogObjectKind.TABLE, "smile-\ud83d\ude00"))
        .isNull();
  }
}
