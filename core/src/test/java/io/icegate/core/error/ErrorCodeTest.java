package io.icegate.core.error;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.model.ResourceKind;
import io.icegate.core.store.KvStoreException.FailureKind;
import org.junit.jupiter.api.Test;

class ErrorCodeTest {

  @Test
  void everyCodeIsAnHttpErrorWithAFillableTemplate() {
    for (ErrorCode code : ErrorCode.values()) {
      assertThat(code.httpStatus()).as(code.name()).isBetween(400, 599);
      // One argument per placeholder, of the placeholder's type: formatting must not throw.
      java.util.List<Object> args = new java.util.ArrayList<>();
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("%([sd])").matcher(code.template());
      while (m.find()) {
        args.add(m.group(1).equals("d") ? (Object) 7L : "x");
      }
      assertThat(code.format(args.toArray())).as(code.name()).isNotBlank().doesNotContain("%");
    }
  }

  @Test
  void statusesTheHttpLayersRelyOn() {
    assertThat(ErrorCode.NOT_FOUND.httpStatus()).isEqualTo(404);
    assertThat(ErrorCode.ALREADY_EXISTS.httpStatus()).isEqualTo(409);
    assertThat(ErrorCode.GENERATION_MISMATCH.httpStatus()).isEqualTo(412);
    assertThat(ErrorCode.FENCED.httpStatus()).isEqualTo(409);
    assertThat(ErrorCode.IDEMPOTENCY_KEY_REUSED.httpStatus()).isEqualTo(422);
    assertThat(ErrorCode.IDEMPOTENCY_IN_PROGRESS.httpStatus()).isEqualTo(409);
    assertThat(ErrorCode.INVALID_PAGE_TOKEN.httpStatus()).isEqualTo(400);
    assertThat(ErrorCode.DEPENDENCY_EXISTS.httpStatus()).isEqualTo(409);
  }

  @Test
  void storeFailuresMapToCodes() {
    assertThat(ErrorCode.forStoreFailure(FailureKind.CONFLICT)).isEqualTo(ErrorCode.STORE_CONTENTION);
    assertThat(ErrorCode.forStoreFailure(FailureKind.TOO_OLD)).isEqualTo(ErrorCode.STORE_CONTENTION);
    assertThat(ErrorCode.forStoreFailure(FailureKind.COMMIT_UNKNOWN_RESULT))
        .isEqualTo(ErrorCode.COMMIT_STATE_UNKNOWN);
    assertThat(ErrorCode.forStoreFailure(FailureKind.LIMIT_EXCEEDED))
        .isEqualTo(ErrorCode.REQUEST_TOO_LARGE);
    assertThat(ErrorCode.forStoreFailure(FailureKind.FAILURE))
        .isEqualTo(ErrorCode.STORE_UNAVAILABLE);
  }

  @Test
  void exceptionCarriesCodeSubjectAndMessage() {
    IcegateException e =
        new IcegateException(ErrorCode.NOT_FOUND, ResourceKind.TABLE, "table", "db.t");
    assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(e.subject()).contains(ResourceKind.TABLE);
    assertThat(e.getMessage()).isEqualTo("table db.t does not exist");
    assertThat(e.httpStatus()).isEqualTo(404);
  }
}
