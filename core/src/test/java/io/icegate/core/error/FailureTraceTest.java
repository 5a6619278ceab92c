package io.icegate.core.error;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A logged failure says where it happened and never what its messages quote. */
class FailureTraceTest {

  @Test
  void showsEachClassAndWhereItWasThrownButNoMessage() {
    RuntimeException failure = new IllegalStateException("client-secret-1",
        new IllegalArgumentException("token s3cr3t"));
    String trace = FailureTrace.of(failure);
    assertThat(trace)
        .startsWith("java.lang.IllegalStateException")
        .contains("\ncaused by java.lang.IllegalArgumentException")
        .contains("at io.icegate.core.error.FailureTraceTest.showsEachClassAndWhereItWasThrown")
        .doesNotContain("client-secret-1")
        .doesNotContain("s3cr3t");
  }

  @Test
  void aCauseCycleEndsAndLongStacksAreCut() {
    RuntimeException a = new RuntimeException("a");
    RuntimeException b = new RuntimeException("b", a);
    a.initCause(b);
    StackTraceElement[] deep = new StackTraceElement[40];
    for (int i = 0; i < deep.length; i++) {
      deep[i] = new StackTraceElement("C", "m" + i, "C.java", i);
    }
    b.setStackTrace(deep);
    String trace = FailureTrace.of(b);
    assertThat(trace.split("caused by", -1)).hasSize(2);
    assertThat(trace).contains("C.m11(C.java:11)").doesNotContain("C.m12(")
        .contains("... 28 more");
  }
}
