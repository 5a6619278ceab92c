package io.icegate.cli.command;

import io.icegate.admin.model.DurationText;
import io.icegate.cli.CliException;
import io.icegate.cli.ExitCode;
import java.time.Duration;

/**
 * The CLI's duration options ({@code --poll-interval}, {@code --refresh-interval}, {@code
 * --retention}), parsed by admin-model's {@link DurationText}, the one parser the server's members
 * and flags use too: a short form ({@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 7d},
 * {@code 2w}) or an ISO-8601 duration ({@code PT5M}, {@code P7D}, {@code P1W}, a week being 7 days
 * and a day 24 hours); positive, with no negative part. Years and months ({@code P1M}) are refused:
 * their length depends on the calendar, as the server says too.
 *
 * <p>The options are read as text and parsed here, not by a picocli converter, so that a bad value
 * is one line naming the option (a converter's failure prints the whole usage).
 */
final class DurationOption {
  private DurationOption() {}

  /**
   * {@code value} of option {@code option}.
   *
   * @throws CliException USAGE naming the option when {@code value} is no positive duration
   */
  static Duration duration(String value, String option) {
    try {
      return DurationText.parse(value);
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCode.USAGE, option + ": " + e.getMessage());
    }
  }

  /**
   * {@code value} of option {@code option} as the ISO-8601 text sent to the server, in the form
   * the server answers ({@code 5m} is {@code PT5M}, {@code 7d} and {@code P1W} are {@code P7D});
   * {@code null} for {@code null}.
   *
   * @throws CliException USAGE naming the option when {@code value} is no positive duration
   */
  static String iso(String value, String option) {
    return value == null ? null : DurationText.canonical(duration(value, option));
  }
}
