package io.icegate.cli.output;

/**
 * How many terminal columns a string takes, as {@code wcwidth} counts them: East Asian Wide and
 * Fullwidth characters (CJK, Hangul, fullwidth forms, emoji pictographs) take two, combining marks
 * and format characters (zero-width joiner, variation selectors) none, the rest one. Table cells
 * hold upstream names in any script, and padding by {@code String.length()} (UTF-16 units)
 * misaligned every column after a CJK or emoji cell. The JDK has no East Asian Width property and
 * the CLI takes no dependency for it: the ranges below are the W and F ranges of Unicode's
 * {@code EastAsianWidth.txt} merged into blocks, as terminals apply them; a rare character they
 * miss is misaligned by one column, never worse.
 */
public final class DisplayWidth {
  /** Inclusive code point ranges, ascending, that take two columns. */
  private static final int[][] WIDE = {
      {0x1100, 0x115F}, // Hangul Jamo initial consonants
      {0x231A, 0x231B}, {0x2329, 0x232A}, {0x23E9, 0x23EC}, {0x23F0, 0x23F0}, {0x23F3, 0x23F3},
      {0x25FD, 0x25FE}, {0x2614, 0x2615}, {0x2648, 0x2653}, {0x267F, 0x267F}, {0x2693, 0x2693},
      {0x26A1, 0x26A1}, {0x26AA, 0x26AB}, {0x26BD, 0x26BE}, {0x26C4, 0x26C5}, {0x26CE, 0x26CE},
      {0x26D4, 0x26D4}, {0x26EA, 0x26EA}, {0x26F2, 0x26F3}, {0x26F5, 0x26F5}, {0x26FA, 0x26FA},
      {0x26FD, 0x26FD}, {0x2705, 0x2705}, {0x270A, 0x270B}, {0x2728, 0x2728}, {0x274C, 0x274C},
      {0x274E, 0x274E}, {0x2753, 0x2755}, {0x2757, 0x2757}, {0x2795, 0x2797}, {0x27B0, 0x27B0},
      {0x27BF, 0x27BF}, {0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55}, // emoji symbols
      {0x2E80, 0x303E}, // CJK radicals, Kangxi, ideographic description, CJK punctuation
      {0x3041, 0x33FF}, // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, CJK compat
      {0x3400, 0x4DBF}, // CJK extension A
      {0x4E00, 0x9FFF}, // CJK unified ideographs
      {0xA000, 0xA4CF}, // Yi
      {0xA960, 0xA97F}, // Hangul Jamo extended A
      {0xAC00, 0xD7A3}, // Hangul syllables
      {0xF900, 0xFAFF}, // CJK compatibility ideographs
      {0xFE10, 0xFE19}, // vertical forms
      {0xFE30, 0xFE6F}, // CJK compatibility forms, small form variants
      {0xFF00, 0xFF60}, // fullwidth forms
      {0xFFE0, 0xFFE6}, // fullwidth signs
      {0x16FE0, 0x16FE4}, {0x17000, 0x18CFF}, {0x1B000, 0x1B2FF}, // Tangut, Kana supplements
      {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A},
      {0x1F200, 0x1F251}, // enclosed ideographic supplement
      {0x1F300, 0x1F64F}, // pictographs and emoticons
      {0x1F680, 0x1F6FF}, // transport and map symbols
      {0x1F7E0, 0x1F7EB}, // coloured circles and squares
      {0x1F900, 0x1F9FF}, // supplemental symbols and pictographs
      {0x1FA70, 0x1FAFF}, // symbols and pictographs extended A
      {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD}, // CJK extensions B and later
  };

  private DisplayWidth() {}

  /** The columns {@code text} takes in a terminal. */
  public static int of(String text) {
    int columns = 0;
    for (int i = 0; i < text.length(); ) {
      int codePoint = text.codePointAt(i);
      columns += of(codePoint);
      i += Character.charCount(codePoint);
    }
    return columns;
  }

  /** The columns one code point takes: 0, 1 or 2. */
  static int of(int codePoint) {
    switch (Character.getType(codePoint)) {
      case Character.NON_SPACING_MARK, Character.ENCLOSING_MARK, Character.FORMAT,
          Character.CONTROL -> {
        return 0;
      }
      default -> {
        // Hangul Jamo vowels and finals join the syllable before them
        if (codePoint >= 0x1160 && codePoint <= 0x11FF) {
          return 0;
        }
        return isWide(codePoint) ? 2 : 1;
      }
    }
  }

  private static boolean isWide(int codePoint) {
    if (codePoint < WIDE[0][0]) {
      return false; // Latin, Greek, Cyrillic...: the common case, no search
    }
    int low = 0;
    int high = WIDE.length - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (codePoint < WIDE[mid][0]) {
        high = mid - 1;
      } else if (codePoint > WIDE[mid][1]) {
        low = mid + 1;
      } else {
        return true;
      }
    }
    return false;
  }
}
