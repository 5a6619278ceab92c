package io.icegate.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Table output lines up in a terminal whatever the script of the cells (tryout: a CJK or emoji
 * name shifted every column after it, padding counted UTF-16 chars, not terminal columns).
 */
class PrinterTableTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static List<String> table(List<String> headers, List<String[]> rows) {
    StringWriter out = new StringWriter();
    Printer printer = new Printer(OutputFormat.table, new PrintWriter(out),
        new PrintWriter(new StringWriter()));
    printer.table(headers, rows, JSON.createObjectNode());
    return out.toString().lines().toList();
  }

  /** The terminal column at which {@code cell} starts on {@code line}. */
  private static int columnOf(String line, String cell) {
    int index = line.indexOf(cell);
    assertThat(index).as(line + " holds " + cell).isNotNegative();
    return DisplayWidth.of(line.substring(0, index));
  }

  @Test
  void columnsAfterWideAndCombiningCellsStartAtOneTerminalColumn() {
    String combining = "cafe\u0301"; // e + combining acute: 4 columns, 5 chars
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"销售数据", "ns-1", "ok"});
    rows.add(new String[] {"🚀launch", "ns-2", "ok"});
    rows.add(new String[] {combining, "ns-3", "ok"});
    rows.add(new String[] {"ｆｕｌｌ", "ns-4", "ok"});
    rows.add(new String[] {"plain", "ns-5", "ok"});
    List<String> lines = table(List.of("NAME", "NAMESPACE", "STATE"), rows);

    assertThat(lines).hasSize(6);
    int namespaceColumn = columnOf(lines.get(0), "NAMESPACE");
    int stateColumn = columnOf(lines.get(0), "STATE");
    // the widest cell is 8 columns (销售数据, ｆｕｌｌ); two spaces separate columns
    assertThat(namespaceColumn).isEqualTo(10);
    for (int i = 1; i < lines.size(); i++) {
      assertThat(columnOf(lines.get(i), "ns-" + i)).as(lines.get(i)).isEqualTo(namespaceColumn);
      assertThat(DisplayWidth.of(lines.get(i))).as(lines.get(i))
          .isEqualTo(stateColumn + "ok".length());
    }
  }

  @Test
  void widthsCountTerminalColumns() {
    assertThat(DisplayWidth.of("orders")).isEqualTo(6);
    assertThat(DisplayWidth.of("销售")).isEqualTo(4);
    assertThat(DisplayWidth.of("한국어")).isEqualTo(6);
    assertThat(DisplayWidth.of("カタカナ")).isEqualTo(8);
    assertThat(DisplayWidth.of("ＡＢ")).isEqualTo(4); // fullwidth Latin
    assertThat(DisplayWidth.of("🚀")).isEqualTo(2); // a surrogate pair, one wide character
    assertThat(DisplayWidth.of("😀x")).isEqualTo(3);
    assertThat(DisplayWidth.of("e\u0301")).isEqualTo(1); // combining acute
    assertThat(DisplayWidth.of("a\u200Db")).isEqualTo(2); // zero-width joiner
    assertThat(DisplayWidth.of("\u2764\uFE0F")).isEqualTo(1); // variation selector takes none
    assertThat(DisplayWidth.of("Ωλ")).isEqualTo(2);
    assertThat(DisplayWidth.of("")).isZero();
  }
}
