#!/usr/bin/env python3
"""Writes java_cases.jsonl: hand-written (pattern, flags, text, replacement) cases of Java's
java.util.regex, for the differential suite of rxw's Java flavors (`java@17`, `java@25`): each
case runs through the real engine (tests/oracle/JavaOracle.java, run by
rxw_testkit::java_oracle_answers under each JDK) and, once the flavor exists, through rxw.

Each line is a case exactly as the oracle reads it: {"pattern", "text", "flags" (optional),
"replace" (optional)}; "flags" are the oracle's letters (i CASE_INSENSITIVE, m MULTILINE,
s DOTALL, x COMMENTS, u UNICODE_CASE, U UNICODE_CHARACTER_CLASS, d UNIX_LINES, c CANON_EQ).
No answer is recorded: the test asks the real engine each time. Every text is valid Unicode
(no lone surrogate: rxw's texts are Rust strings), and no case's answer holds a lone surrogate
(--check stops when one does: a replacement that splits a pair, say; such probes are kept out
of the corpus and written down in crates/rxw-syntax/gen/java_notes.md instead).

The cases cover the findings of crates/rxw-syntax/gen/java_notes.md: possessive quantifiers,
atomic groups, look-around and Java's bounded look-behind, class unions, intersections and
subtraction (`[a-z&&[^aeiou]]`, `[a[b]]`), `\\R \\h \\H \\v \\V \\X \\b{g}`, the `java…`,
`Is…`, `In…`, script, block, category and POSIX properties with and without
UNICODE_CHARACTER_CLASS, `\\Q…\\E` (in classes too), octal, `\\x{…}`, `\\uXXXX`, `\\cX`,
`\\N{…}`, backreferences (`\\11` is group 11 only when it exists), `\\k<name>`, group names,
inline flags and their scope, comments mode, UNIX_LINES, the line terminators of `^ $ . \\Z`,
case-insensitive matching with and without UNICODE_CASE, the find() loop after an empty match
and inside surrogate pairs, replacement templates and their errors, CANON_EQ, catastrophic
backtracking and stack overflows, and about 200 malformed patterns (description and index).

Options:
  --check     run every case through every JDK found ($RXW_JAVA17, $RXW_JAVA25, any
              $RXW_JAVA<N>: a JDK home or its java; else /usr/lib/jvm/*; else java on the
              PATH) and print how each answered;
  --diff      also list every case on which two JDKs answer differently;
  --python    also run the cases whose flags Python has (i m s x; u is ignored: Python's re
              folds Unicode by default) through this Python's `re` and list where it answers
              differently from the newest JDK (offsets converted to UTF-16), by kind;
  --dump DIR  write each JDK's answers to DIR/java<major>.jsonl, one line a case.

Usage: record_java_cases.py [--out FILE] [--check] [--diff] [--python] [--dump DIR]
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

from record_common import LOG, ROOT, UNI, answers_to, arguments, jsonl, report_differences, \
    short, write_cases

ORACLE = os.path.join(ROOT, "tests", "oracle", "JavaOracle.java")

LINES = "a\nb\r\nc\rd\u0085e\u2028f\u2029g"
WS = "a \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\u0085\u00a0\u1680\u2000\u2007\u200b\u2028\u202f\u205f\u3000\ufeffb"
DIGITS = "0123 ٣٤ ४ ０１ ¹² ⅷ ½ 𝟘 a"
EMOJI = "a😀b👍🏽c🇫🇷d👨‍👩‍👧e"
CASES_I = "kK\u212a sSſ iIİı σςΣ ßẞ ǅǄǆ µΜμ åÅ\u212b ÿŸ ﬀ ΐ\u1fd3"

# (flags, pattern, [texts]).
GROUPS = []


def g(flags, pattern, *texts):
    GROUPS.append((flags, pattern, list(texts) or [""]))


# ---------------------------------------------------------------- literals and escapes
g("", "abc", "abc", "xabcabc", "ab")
g("", "a.c", "abc", "a\nc", "a😀c", "a\rc", "a\u2028c", "a\u0085c")
g("", r"a\.c", "a.c", "abc")
g("", "é+", "ééé e")
g("", "日本", "日本語 日本")
g("", "😀", "a😀b😀")
g("", "😀+", "😀😀 😀")
g("", "a\x00b", "a\x00b")
g("", "\x00", "a\x00b")
g("", "a\x00*", "a\x00\x00")
g("", r"\t\n\r\f\a\e", "\t\n\r\f\x07\x1b")
g("", r"\0101\060", "A0")
g("", r"\0", "\x00")
g("", r"\00", "\x00")
g("", r"\07", "\x07")
g("", r"\077", "?")
g("", r"\0377", "ÿ")
g("", r"\0400", " 0")
g("", r"\0777", "?7")
g("", r"\08", "\x008")
g("", r"\0a", "a")
g("", r"\012", "\n")
g("", r"\x41\x{42}\x{0043}", "ABC")
g("", r"\x{1F600}+", "😀😀 😁")
g("", r"\x{10FFFF}", "\U0010ffff")
g("", r"\x{0}", "\x00")
g("", r"\x{000000041}", "A")
g("", r"\xe9", "é")
g("", r"\xE9", "é")
g("", r"\u0041\u00e9", "Aé")
g("", r"\u00E9", "é")
g("", r"\ud83d\ude00", "😀")
g("", r"\uD83D\uDE00+", "😀😀")
g("", r"[\ud83d\ude00]", "😀")
g("", r"\x{D83D}\x{DE00}", "😀")
g("", r"\cA\cZ", "\x01\x1a")
g("", r"\ca", "!")
g("", r"\c@", "\x00")
g("", r"\c[", "\x1b")
g("", r"\c?", "\x7f")
g("", r"\c1", "q")
g("", r"\c\\", "\x1c")
g("", r"\cé", "©")
g("", r"\N{LATIN SMALL LETTER A}", "a")
g("", r"\N{latin small letter a}", "a")
g("", r"\N{GRINNING FACE}", "😀")
g("", r"\N{LATIN SMALL LETTER E WITH ACUTE}+", "éé")
g("", r"\N{SPACE}", " ")
g("", r"\N{U+0041}", "A")
g("", r"[\N{DIGIT ONE}-\N{DIGIT THREE}]+", "0123")
g("", r"\N{NULL}", "\x00")
g("", r"\N{LINE FEED}", "\n")
g("", r"\N{LINE FEED (LF)}", "\n")
g("", r"\N{BEL}", "\x07")
g("", r"\N{BELL}", "🔔")
g("", r"\N{ZERO WIDTH JOINER}", "\u200d")
g("", r"\N{LATIN CAPITAL LETTER A WITH MACRON AND GRAVE}", "x")
g("", r"\N{GARAY CAPITAL LETTER A}", "\U00010d50")
g("", r"\N{CJK UNIFIED IDEOGRAPH-4E00}", "一")
g("", r"\N{HANGUL SYLLABLE GA}", "가")
g("", r"\N{CJK UNIFIED IDEOGRAPHS 4E00}", "一")
g("", r"\N{cjk unified ideographs 4e00}", "一")
g("", r"\N{HANGUL SYLLABLES AC00}", "가")
g("", r"\N{CJK UNIFIED IDEOGRAPHS 0041}", "A")
g("", r"\N{ latin small letter a}", "a")
g("", r"\N{LATIN_SMALL_LETTER_A}", "a")
g("", r"\%\_\-\#\ \~\<\>\@\"\'\`\=\:\;\,\/\&\!", "%_-# ~<>@\"'`=:;,/&!")
g("", r"\é\日\😀", "é日😀")
g("", r"\}\]\{\[", "}]{[")
g("", "a}", "a}")
g("", "a]", "a]")
g("", "]", "]]")
g("", "}", "}")
g("", r"a\\", "a\\")
g("", r"a\\\\b", "a\\\\b")
# \Q…\E.
g("", r"\Q.*+?\E", ".*+?", "aaa")
g("", r"\Qa.b\E+", "a.bbb", "a.ba.b")
g("", r"\Qab", "ab", "xab")
g("", r"\Qa\\E", "a\\E", "a\\")
g("", r"\Qa\E\Qb\E", "ab")
g("", r"a\Q\E*", "aa", "a")
g("", r"\Qa\\", "a\\\\")
g("", r"\Q\E", "ab")
g("", r"\Q\Q\E", "\\Q")
g("", r"\Q(\E", "(")
g("", r"\Q123\E", "123")
g("", r"\x4\Q1\E", "A")
g("", r"\Q0\E{2}", "00")
g("", r"\u004\Q1\E", "A")
g("", r"[\Q]\E]", "]x")
g("", r"[\Q^\E]", "^a")
g("", r"[\Qa-c\E]+", "a-cb")
g("", r"[\Q\E]", "a")
g("", r"[a\Q]", "a]")
g("", r"[\Q]]\E]+", "]]")
g("", r"\Q[\E[a]", "[a")
g("x", r"\Qa b\E", "a b", "ab")
g("x", r"\Q#\Ea", "#a")
g("", r"(\Qa)\E)", "a)")
g("", r"\Qé😀\E+", "é😀😀")

# ---------------------------------------------------------------- classes
g("", "[abc]+", "xabcabx")
g("", "[^abc]+", "xabcabx")
g("", "[a-z]+", "Hello World")
g("", "[]a]", "]a")
g("", "[^]a]+", "]ab")
g("", "[a]]", "a]", "a")
g("", "[a-]+", "a-b")
g("", "[-a]+", "a-b")
g("", "[a-c-e]+", "abd-e")
g("", "[!--]+", "!\"#$%&'()*+,-.")
g("", "[--/]+", "-./0")
g("", r"[\d-z]+", "1-z")
g("", r"[a-\d]", "a-1")
g("", r"[\w-.]+", "a-b.c d")
g("", "[é-ö]+", "èéöø")
g("", "[😀-😂]+", "😀😁😂😃")
g("", r"[\x{1F600}-\x{1F602}]+", "😀😁😂😃")
g("", r"[\x00-\x{10FFFF}]+", "a😀\n")
g("", r"[^\x00-\x{10FFFF}]", "a")
g("", r"[\ud800-\udfff]", "a😀")
g("", r"[^a]", "😀")
g("", r"[^a]+", "😀b😀")
g("", "[😀]", "😀")
g("", "[^😀]", "😀a")
g("", "[a^]+", "^a")
g("", "[\\^a]+", "^a")
g("", "[$.|()*+?{}]+", "$.|()*+?{}")
g("", "[\\[\\]]+", "[]")
g("", r"[\n\t\x41\u0042\0103]+", "\n\tABC")
g("", r"[\v-\x0d]+", "\x0b\x0c\r\n")
g("", r"[\v-a]+", "\x0b Ab-")
g("", r"[\h-a]+", " \t-ab")
g("", r"[\d-a]+", "1-ab")
g("", r"[\x0a-\v]+", "\n\x0b\x0c")
g("", r"[\v]+", "\n\x0b\x0c\r\u0085\u2028")
g("", r"[\h]+", " \t\u00a0")
g("", r"[\R]", "\n")
g("", r"[\b]", "\b")
g("", r"[\s\S]+", "ab\n")
g("", r"[^\s\S]", "ab")
g("", r"[^\d]+", "ab12cd")
g("", r"[\D]+", "ab12cd")
g("", r"[\W\d]+", "a1!b")
g("", r"[\p{L}\d]+", "héllo42 !")
g("", r"[^\p{L}]+", "héllo42 !")
g("", r"[\P{L}]+", "héllo42 !")
g("", r"[^\P{L}]+", "héllo42 !")
g("", r"[\p{Lu}&&[A-M]]+", "ABNZÀ")
g("", r"[a\x{1F600}]+", "a😀😁")
g("", r"[\u0041-\u0043]+", "ABCD")
g("", r"[\N{DIGIT ZERO}-\N{DIGIT FIVE}]+", "0369")
# Unions (a nested class adds to the outer one).
g("", "[a[b]]+", "ab[]")
g("", "[a[b]c]+", "abc[]")
g("", "[[a][b]]+", "ab")
g("", "[[a]b]+", "ab")
g("", "[^a[b]]+", "abc")
g("", "[^[a]b]+", "abc")
g("", "[^[a][b]]+", "abc")
g("", "[a[^b]]+", "abc")
g("", "[^a[^b]]+", "abc")
g("", "[a-c[x-z]]+", "abxy m")
g("", "[[a-c][x-z]]+", "abxy m")
g("", "[[[a]]]+", "a[]")
g("", "[a[]]", "a")
g("", "[[^a]]+", "abc")
g("", "[^]", "a")
g("", "[[]]", "a")
# Intersection and subtraction.
g("", "[a-z&&[^aeiou]]+", "hello world")
g("", "[a-z&&[def]]+", "abcdef")
g("", "[a-z&&def]+", "abcdef")
g("", "[a-z&&d-f]+", "abcdef")
g("", "[a-z&&[^d-f]]+", "abcdef")
g("", "[a-z&&[a-m]&&[h-z]]+", "abhmnz")
g("", "[a-z&&b]", "ab")
g("", "[^a-z&&b]+", "ab1")
g("", "[[^a-z]&&b]+", "ab1")
g("", "[a-c&&b-d[x]]+", "abcdx")
g("", "[a&&b]", "ab&")
g("", "[&&a]", "a&")
g("", "[a&&]", "a&")
g("", "[&&]", "&a")
g("", "[a&&&b]", "ab&")
g("", "[a&&&&b]", "ab&")
g("", "[a&b]+", "a&b")
g("", "[a&]+", "a&")
g("", "[&a]+", "a&")
g("", "[a-z&&[^x]&&[^y]]+", "wxyz")
g("", r"[\w&&[^\d]]+", "ab12_c")
g("", r"[\w&&\D]+", "ab12_c")
g("", r"[\p{L}&&[^\p{Lu}]]+", "abCDéÉ")
g("", r"[\p{InGreek}&&\p{Ll}]+", "αβΓΔ")
g("", "[a-z&&[aeiou]x]+", "aex")
g("", "[[a-z]&&[aeiou]x]+", "aex")
g("", "[a-z&&[aeiou][x]]+", "aexy")
g("", "[ab&&[b]c]+", "abc")
g("", "[&&[a]]", "a")
g("", "[a-z&&]+", "az")
# Case-insensitive classes.
g("i", "[a-c]+", "abcABC")
g("i", "[^a-c]+", "abcABCd")
g("i", "[K]", "kK\u212a")
g("iu", "[K]", "kK\u212a")
g("iu", "[k-l]+", "kK\u212alL")
g("iu", "[^k]", "kK\u212a")
g("iu", "[é-ë]+", "ÉÊËé")
g("i", "[é-ë]+", "ÉÊËé")
g("iu", "[σ]+", "σςΣ")
g("iu", "[ſ]+", "sSſ")
g("iu", "[s]+", "sSſ")
g("iu", "[ß]+", "ßẞ")
g("iu", "[ẞ]+", "ßẞ")
g("iu", r"[\x{10400}]+", "\U00010400\U00010428")
g("iu", r"[a-z&&[^k]]+", "abjkK\u212al")

# ---------------------------------------------------------------- predefined and POSIX classes
for pat in [r"\d+", r"\D+", r"\w+", r"\W+", r"\s+", r"\S+", r"\h+", r"\H+", r"\v+", r"\V+"]:
    g("", pat, DIGITS, WS, UNI)
    g("U", pat, DIGITS, WS, UNI)
g("", r"\s", "\x0b")
g("", r"\s", "\x1c\x1d\x1e\x1f")
g("", r"\w", "_")
g("U", r"\w+", "a\u0301 \u200c\u200d x\u00b7 ⅷ ١")
g("", r"\b", "héllo wörld", "a_1 b", "ab cd")
g("U", r"\b", "héllo wörld", "a\u0301b c")
g("", r"\B", "héllo", "ab")
g("U", r"\B", "héllo")
g("", r"\b\w+\b", "café naïve x")
g("", r"\bé", "é", "aé")
g("", r"\b", "a\u0301", "\u0301a")
g("", r"\b", "é")
g("", r"\b", "e\u0301")
g("", r"\b", "1٣")
g("", r"\b", "_")
g("", r"\b", "ǅx")
g("", r"(?U)\b", "é")
g("", r"(?U)\w+", "héllo")
g("", r"(?U)\d+", "٣٤")
for name in ["Lower", "Upper", "ASCII", "Alpha", "Digit", "Alnum", "Punct", "Graph", "Print",
             "Blank", "Cntrl", "XDigit", "Space"]:
    g("", r"\p{%s}+" % name, "aZ09 é!\t\x7f~_É٣\u00a0\x1f")
    g("U", r"\p{%s}+" % name, "aZ09 é!\t\x7f~_É٣\u00a0\x1f")
g("i", r"\p{Lower}+", "aBcÉ")
g("i", r"\p{Upper}+", "aBcÉ")
g("iU", r"\p{Lower}+", "aBcÉ")
g("", r"\p{Punct}", "$+<=>^`|~")
g("U", r"\p{Punct}", "$+<=>^`|~!")
g("", r"\P{Alpha}+", "ab12é")
g("", r"\p{L1}+", "aé\u0100")
g("", r"\p{all}+", "a😀\n")
g("", r"\p{ALL}", "a")
g("", r"\p{alpha}", "a")
g("", r"\p{ascii}", "a")
g("U", r"\p{alpha}", "a")
g("U", r"\p{ALPHA}", "a")
g("", r"\p{IsAlpha}", "aé")
g("", r"\p{Isalpha}", "aé")
g("", r"\p{IsPunct}+", "!«»")
g("", r"\p{IsDigit}+", "1٣")
g("", r"\p{IsSpace}+", " \u00a0\u2028")
g("", r"\p{IsBlank}+", " \t\u00a0\u2000")
g("", r"\p{IsGraph}+", "a é\u00a0")
g("", r"\p{IsPrint}+", "a é\u00a0")
g("", r"\p{IsXDigit}+", "0aF\uff21g")
g("", r"\p{IsCntrl}+", "\x00\x7f\x85")
g("", r"\p{IsAlnum}+", "a1٣_")
g("", r"\p{IsASCII}", "a")
# java.lang.Character methods.
for name in ["javaLowerCase", "javaUpperCase", "javaTitleCase", "javaAlphabetic",
             "javaIdeographic", "javaDigit", "javaDefined", "javaLetter", "javaLetterOrDigit",
             "javaJavaIdentifierStart", "javaJavaIdentifierPart", "javaUnicodeIdentifierStart",
             "javaUnicodeIdentifierPart", "javaIdentifierIgnorable", "javaSpaceChar",
             "javaWhitespace", "javaISOControl", "javaMirrored"]:
    g("", r"\p{%s}+" % name, "aZ ǅ 日 ٣ $_\x00\u200b \u00a0( \u2028 \u0378 ª")
g("i", r"\p{javaLowerCase}+", "aB")
g("", r"\p{javalowercase}", "a")
g("", r"\p{IsJavaLowerCase}", "a")
g("", r"\p{javaLowerCase", "a")
# Unicode binary properties (\p{IsX}).
for name in ["Alphabetic", "Ideographic", "Letter", "Lowercase", "Uppercase", "Titlecase",
             "Punctuation", "Control", "White_Space", "WhiteSpace", "Digit", "Hex_Digit",
             "HexDigit", "Join_Control", "JoinControl", "Noncharacter_Code_Point", "Assigned",
             "Emoji", "Emoji_Presentation", "Emoji_Modifier", "Emoji_Modifier_Base",
             "Emoji_Component", "Extended_Pictographic", "Word"]:
    g("", r"\p{Is%s}+" % name, "aZ ǅ Ⅻ 日 ٣ ½ $_ \u200d\ufdd0\u0378 😀🏽#ª")
g("", r"\p{IsALPHABETIC}", "a")
g("", r"\p{Isalphabetic}", "a")
g("", r"\p{IsWhite Space}", " ")
g("", r"\p{IsWHITE_SPACE}", " ")
g("i", r"\p{IsLowercase}+", "aBǅ")
g("i", r"\p{IsUppercase}+", "aBǅ")
g("i", r"\p{IsTitlecase}+", "aBǅ")
g("", r"\p{Alphabetic}", "a")
# General categories.
for cat in ["L", "Lu", "Ll", "Lt", "Lm", "Lo", "LC", "LD", "M", "Mn", "Mc", "Me", "N", "Nd",
            "Nl", "No", "P", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "S", "Sm", "Sc", "Sk",
            "So", "Z", "Zs", "Zl", "Zp", "C", "Cc", "Cf", "Co", "Cn"]:
    g("", r"\p{%s}+" % cat, "aZǅʰ日\u0301\u0903\u20dd٣Ⅻ½_-([)»«!+$^©  \u2028\u2029\x00\u200b\ue000\u0378")
g("", r"\p{Cs}", "a😀")
g("", r"\pL+", UNI)
g("", r"\PL+", UNI)
g("", r"\pN+", "abc 123 ١٢٣ Ⅻ ½")
g("", r"\p{IsL}+", "ab1")
g("", r"\p{IsLu}+", "aBC")
g("", r"\p{gc=Lu}+", "aBC")
g("", r"\p{general_category=Lu}+", "aBC")
g("", r"\p{GC=Lu}+", "aBC")
g("", r"\p{gc=Uppercase_Letter}", "A")
g("", r"\p{Uppercase_Letter}", "A")
g("", r"\p{lu}", "A")
g("", r"\p{LU}", "A")
g("", r"\p{L&}", "A")
g("", r"\p{Letter}", "A")
g("i", r"\p{Lu}+", "aBǅ1")
g("i", r"\p{Ll}+", "aBǅ1")
g("i", r"\p{Lt}+", "aBǅ1")
g("i", r"\P{Lu}+", "aBǅ1")
g("i", r"\p{LC}+", "aBǅ1")
g("iu", r"\p{Lu}+", "aBǅ1")
g("", r"\p{IsLC}", "a")
# Scripts.
for name in ["Latin", "Greek", "Cyrillic", "Han", "Arabic", "Common", "Inherited", "Hiragana",
             "Katakana", "Devanagari", "Hebrew", "Thai"]:
    g("", r"\p{Is%s}+" % name, "abc αβγ жж 日本 عربي 123 \u0301 ひら カタ नमस्ते שלום ไทย")
g("", r"\p{IsLatin}+", UNI)
g("", r"\p{IsGreek}+", UNI)
g("", r"\p{Islatin}+", "ab")
g("", r"\p{IsLATIN}+", "ab")
g("", r"\p{IsLatn}+", "ab")
g("", r"\p{IsGrek}+", "αβ")
g("", r"\p{script=Latin}+", "ab")
g("", r"\p{sc=Latn}+", "ab")
g("", r"\p{Script=Greek}+", "αβ")
g("", r"\p{sc=latin}+", "ab")
g("", r"\p{sc=Old_Italic}", "\U00010300")
g("", r"\p{sc=OLD ITALIC}", "\U00010300")
g("", r"\p{IsOld_Italic}", "\U00010300")
g("", r"\p{Latin}", "a")
g("", r"\p{IsUnknown}+", "\u0378a")
g("", r"\p{IsZyyy}", "1")
g("", r"\p{IsKawi}", "\U00011f04")
g("", r"\p{IsNag_Mundari}", "\U0001e4d0")
g("", r"\p{IsGaray}", "\U00010d50")
g("", r"\p{IsToto}", "\U0001e290")
g("", r"\p{IsVithkuqi}", "\U00010570")
g("", r"\p{IsTodhri}", "\U000105c0")
g("", r"\p{IsSunuwar}", "\U00011bc0")
g("", r"\p{IsKirat_Rai}", "\U00016d40")
g("", r"\p{IsOl_Onal}", "\U0001e5d0")
g("", r"\p{IsTulu_Tigalari}", "\U00011380")
g("", r"\p{IsGurung_Khema}", "\U00016100")
g("", r"\p{IsSidetic}", "x")
# Blocks.
for name in ["Greek", "GreekandCoptic", "Greek_and_Coptic", "Greek and Coptic", "GREEK",
             "greek", "BasicLatin", "Basic_Latin", "Basic Latin", "Latin-1 Supplement",
             "Latin1Supplement", "Latin_1_Supplement", "CJKUnifiedIdeographs", "Cyrillic",
             "Emoticons", "HighSurrogates", "Arabic"]:
    g("", r"\p{In%s}+" % name, "abc αβγ Ͱ é 日 жж 😀 ع")
g("", r"\p{block=Greek}+", "αβ")
g("", r"\p{blk=Greek}+", "αβ")
g("", r"\p{blk=InGreek}+", "αβ")
g("", r"\p{InKawi}", "\U00011f04")
g("", r"\p{InGaray}", "\U00010d50")
g("", r"\p{InCJK_Unified_Ideographs_Extension_I}", "\U0002ebf0")
g("", r"\p{InSymbols_for_Legacy_Computing_Supplement}", "\U0001cc00")
g("", r"\p{IsHan}", "\U0002ebf0")
g("", r"\p{Lo}", "\U0002ebf0")
g("", r"\p{Lo}", "\U00031350")
g("", r"\p{IsHan}", "\U00031350")
g("", r"\p{Cn}", "\u08be\u0c5d\U0001fae9\U0001f7d9")
g("", r"\p{So}", "\U0001fae9\U0001faaa\U0001fac6\U0001f7d9")
g("", r"\p{Lu}", "\u0243\ua7c0\ua7cb\ua7dc")
g("", r"\p{IsEmoji}+", "😀🫩 #")
g("", r"\p{IsAlphabetic}", "\u0897")
# Negated forms.
g("", r"\P{IsLatin}+", "abc αβ")
g("", r"\P{InGreek}+", "abc αβ")
g("", r"\p{^L}", "a1")
g("", r"\P{javaLowerCase}+", "aBC")
g("", r"[\P{IsLatin}&&\p{L}]+", "abcαβ12")
g("i", r"\p{IsLatin}+", "aB")
g("i", r"\p{InBasicLatin}+", "aB")
g("", r"\pL", "a")
g("", r"\pLu", "Au")
g("", r"\p{L}u", "Au")
g("", r"\p", "p")
g("", r"\pé", "é")
g("", r"\p😀", "😀")

# ---------------------------------------------------------------- anchors and line terminators
g("", "^a", "a", "ba", "a\na")
g("", "a$", "a", "a\n", "a\r\n", "a\r", "a\u0085", "a\u2028", "a\u2029", "a\n\n", "a\nb", "a\r\n\n")
g("", "$", "", "a", "a\n", "a\r\n", "a\n\n", "\r\n", "\n\r")
g("", "^", "", "a\nb")
g("", "a$\n", "a\n")
g("", "a$\r\n", "a\r\n")
g("", r"a$\r", "a\r\n")
g("", "a\r$", "a\r\n")
g("", "a$.", "a\nb", "a\n\n")
g("s", "a$.", "a\n", "a\r\n")
g("s", "$.", "a\n", "a\r\n")
g("m", "^", "a\nb\r\nc\rd\u0085e\u2028f\u2029g", "", "\n", "a\n", "\r\n", "\n\n")
g("m", "$", "a\nb\r\nc\rd\u0085e\u2028f\u2029g", "", "\n", "a\n", "\r\n", "\n\n")
g("m", r"^\w", LINES)
g("m", r"\w$", LINES)
g("m", r"^$", "a\n\nb\r\n\r\nc", "\r\n", "\n\r")
g("m", "^a", "a\u000ba", "a\u000ca", "a\x1ca")
g("md", "^", LINES, "\n\n")
g("md", "$", LINES, "\n\n")
g("d", "$", "a\n", "a\r\n", "a\r")
g("d", "a$", "a\r\n", "a\n", "a\u0085")
g("d", ".+", LINES)
g("d", r"\Z", "a\n", "a\r\n")
g("ds", ".+", LINES)
g("", ".+", LINES)
g("s", ".+", LINES)
g("", ".", "\r\n")
g("", r"\Z", "", "a", "a\n", "a\r\n", "a\n\n", "a\u2028", "a\r")
g("", r"a\Z", "a\n", "a\r\n", "a\n\n")
g("m", r"a\Z", "a\nb")
g("", r"\z", "", "a\n")
g("", r"a\z", "a", "a\n")
g("", r"\A", "", "ab")
g("m", r"\Aa", "a\na")
g("", r"\Ga", "aab", "aaba")
g("", r"\G\w", "ab cd")
g("", r"\G", "ab")
g("", r"a|\G", "ab")
g("", r"\Gx|a", "axa")
g("", r"(?m)\G^", "a\nb")
g("", r"x*\G", "ab")
g("", r"\G(a|b)", "abab c")
g("", r"^*a", "a")
g("", r"$*", "a")
g("", r"\b+", "a")
g("", r"\b*a", "a")
g("", r"(?=a)*a", "a")
g("", r"(?=a){2}a", "a")
g("", r"(?!a)+b", "b")
g("", r"^{2}a", "a")
g("", r"\G{3}a", "a")
# \R and its backtracking.
g("", r"\R", "\r\n\n\r\x0b\x0c\u0085\u2028\u2029 ")
g("", r"\R\n", "\r\n")
g("", r"\R{2}", "\r\n")
g("", r"\R+", "\r\n\r\n")
g("", r"a\R", "a\r\nb")
g("", r"\R$", "\r\n")
g("", r"(?>\R)\n", "\r\n")
g("", r"\R++\n", "\r\n\n")
g("", r"[^\R]", "a")
g("", r"\R", "\r")
# \X and \b{g}.
g("", r"\X", "e\u0301x", EMOJI, "\r\n", "\u0915\u094d\u0937", "각", "\u1100\u1161\u11a8", "a\u200db")
g("", r"\X", "\U0001f1fa\U0001f1f8\U0001f1eb", "\u0915\u094d\u200d\u0937", "\u0915\u094d\u0924\u094d\u0930")
g("", r"\X", "a\u0308\u0301", "\U0001f469\u200d\U0001f4bb", "x\ufe0f", "\u0e01\u0e33", "\u0903a")
g("", r"\X", "\u0600a", "\U000110bda", "\u0d4ea")
g("", r"\X+", EMOJI)
g("", r"\X{2}", "e\u0301x\u0301y")
g("", r"\b{g}", "e\u0301x", EMOJI, "\r\n", "\u0915\u094d\u0937")
g("", r"\b{g}", "\u0915\u094d\u0924\u094d\u0930", "\U0001f1fa\U0001f1f8\U0001f1eb")
g("", r"\b{g}x", "e\u0301x")
g("", r"\B{g}", "ab")
g("", r"\b{w}", "ab")
g("", r"\b{", "ab")
g("", r"\b{g", "ab")
g("", r"\b{gx}", "ab")
g("", r".\b{g}", "e\u0301")
g("", r"e\b{g}", "e\u0301")
g("", r"(?s).+?\b{g}", "e\u0301\u0301x")
g("", r"\X", "😀")

# ---------------------------------------------------------------- case-insensitive matching
g("i", "abc", "ABC aBc abc")
g("i", "k", CASES_I)
g("iu", "k", CASES_I)
g("i", "K", CASES_I)
g("iu", "K", CASES_I)
g("iu", "\u212a", CASES_I)
g("i", "\u212a", CASES_I)
g("i", "s", CASES_I)
g("iu", "s", CASES_I)
g("iu", "ſ", CASES_I)
g("iu", "S", CASES_I)
g("i", "i", CASES_I)
g("iu", "i", CASES_I)
g("iu", "I", CASES_I)
g("iu", "İ", CASES_I)
g("iu", "ı", CASES_I)
g("iu", "σ", CASES_I)
g("iu", "ς", CASES_I)
g("iu", "Σ", CASES_I)
g("i", "σ", CASES_I)
g("iu", "ß", CASES_I)
g("iu", "ẞ", CASES_I)
g("iu", "ss", "ß SS ss")
g("iu", "ǅ", CASES_I)
g("iu", "ǆ", CASES_I)
g("iu", "Ǆ", CASES_I)
g("iu", "µ", CASES_I)
g("iu", "μ", CASES_I)
g("iu", "Μ", CASES_I)
g("iu", "å", CASES_I)
g("iu", "Å", CASES_I)
g("iu", "\u212b", CASES_I)
g("iu", "ÿ", CASES_I)
g("iu", "Ÿ", CASES_I)
g("i", "ÿ", CASES_I)
g("iu", "ﬀ", CASES_I)
g("iu", "ff", "ﬀ FF")
g("iu", "ΐ", CASES_I)
g("iu", "\u1fd3", CASES_I)
g("iu", "\u1e9b", "\u1e9b\u1e60\u1e61")
g("iu", "\u1e61", "\u1e9b\u1e60\u1e61")
g("iu", "θ", "θΘϑϴ")
g("iu", "ϑ", "θΘϑϴ")
g("iu", "ϴ", "θΘϑϴ")
g("iu", "ω", "ωΩ\u2126")
g("iu", "\u2126", "ωΩ\u2126")
g("iu", "\u1f80", "\u1f80\u1f88\u1fbc")
g("iu", "\u1fb3", "\u1fb3\u1fbc")
g("iu", "\u0345", "\u0345\u0399\u03b9\u1fbe")
g("iu", "\u1fbe", "\u0345\u0399\u03b9\u1fbe")
g("iu", "é", "éÉ")
g("i", "é", "éÉ")
g("i", "É", "éÉ")
g("iu", "ǰ", "ǰJ̌")
g("iu", "\U00010400", "\U00010400\U00010428")
g("i", "\U00010400", "\U00010400\U00010428")
g("iu", "\U0001e900", "\U0001e900\U0001e922")
g("iu", "ⓐ", "ⓐⒶ")
g("iu", "ǈ", "Ǉǈǉ")
g("iu", "\u0130", "i\u0130I\u0131")
g("iu", "\u0131", "i\u0130I\u0131")
g("iu", "\u03c2+", "ΣσςΣ")
g("iu", "ab", "AB aB Ab")
g("iu", "kelvin", "\u212aELVIN kelvin")
g("i", "kelvin", "\u212aELVIN kelvin")
g("iu", "straße", "STRASSE straße STRAẞE")
g("iu", "ǅa", "ǄA ǆa")
g("iu", "\u2c65", "\u2c65\u023a")
g("iu", "\u023a", "\u2c65\u023a")
g("iu", "\u1c80", "\u1c80\u0412\u0432")
g("iu", "в", "\u1c80\u0412\u0432")
g("iu", "\ua7c0", "\ua7c0\ua7c1")
g("iu", "\ua7dc", "\ua7dc\u019b")
g("iu", "\u019b", "\ua7dc\u019b")
g("iu", "\u10d0", "\u10d0\u1c90")
g("iu", "\u13a0", "\u13a0\uab70")
g("i", r"\u00e9", "É")
g("iu", r"\u00e9", "É")
g("iu", r"\x{10428}", "\U00010400")
g("i", "(?u)é", "É")
g("", "(?i)é", "É")
g("", "(?iu)é", "É")
g("", "(?ui)é", "É")
g("u", "é", "É")
g("u", "(?i)é", "É")
g("U", "é", "É")
g("iU", "é", "É")
g("", "(?U)(?i)é", "É")
g("", "(?iU)é", "É")
g("iU", "(?-U)é", "É")
g("iU", "(?-u)é", "É")
g("iU", r"(?-U)\w", "é")
g("i", r"\w+", "é\u212a")
g("i", r"[a-z]+", "\u212a\u017f")
g("iu", r"[a-z]+", "\u212a\u017f")
g("iu", r"[^a-z]+", "\u212a\u017f")
g("i", r"[^k]", "\u212a")
g("iu", r"[\x{212a}]", "kK")
g("iu", r"\x{212a}", "kK")
g("i", r"[A-Z]+", "abc")
g("iu", r"[À-Þ]+", "àþÿ")
g("iu", r"[α-ω]+", "ΑΩς")
g("iu", r"[ǅ]+", "ǄǅǆDž")
# Backreferences under CASE_INSENSITIVE.
g("i", r"(a)\1", "aA Aa")
g("iu", r"(é)\1", "éÉ")
g("i", r"(é)\1", "éÉ")
g("iu", r"(ß)\1", "ßẞ")
g("iu", r"(ẞ)\1", "ẞß")
g("iu", r"(\u212a)\1", "\u212ak")
g("iu", r"(k)\1", "k\u212a")
g("iu", r"(σ)\1", "σς")
g("i", r"(?<n>a)\k<n>", "aA")
g("i", r"(a)(?-i)\1", "aA")
g("", r"(a)(?i)\1", "aA")
g("iu", r"(\x{10400})\1", "\U00010400\U00010428")

# ---------------------------------------------------------------- groups, names and backreferences
g("", "(a)|(b)", "ab")
g("", "(a)(b)?", "a ab")
g("", "((a)|b)+", "ab ba")
g("", "(a|ab)(c|bcd)(d*)", "abcd")
g("", "(?:a(b)?)+", "aba")
g("", "(a*)*", "b", "aaa")
g("", "(a*)+", "b", "aaa")
g("", "(a|)+", "aaa")
g("", "(|a)*", "aaa")
g("", "(|a)+", "aaa")
g("", "(a*?)*", "aa")
g("", "(a?)*", "aa")
g("", "(a{2}|)*", "aaaaa")
g("", "(a|b)*", "ab")
g("", "(a|b)*?c", "abc")
g("", "(a)*", "aaa")
g("", "(a)+?", "aaa")
g("", "(a)*b", "aab b")
g("", "(a|ab)*c", "abac")
g("", "(?:(a)|b)*", "ab")
g("", "(?:(a)|(b))*", "ab", "ba")
g("", "(?:(a)|(b))+", "aba")
g("", "(?:(a)b|a(c))*", "abac")
g("", "(a(b)?)+", "aba")
g("", "((a)|(b))*", "ab")
g("", "(a)?(b)?c", "c bc")
g("", "(?:(a)|b){2}", "ab")
g("", "(?:(a)|b){2,3}", "ab")
g("", "(a+|b+)*c", "aabbc")
g("", "(a|b|)*", "ab")
g("", "(?:a|(b))*", "bab")
g("", "((a)|(b))+", "abab")
g("", "(?<x>a)|(?<y>b)", "ab")
g("", "(?<word>\\w+) (?<num>\\d+)", "abc 123")
g("", "(?<a1>x)(?<B2>y)", "xy")
g("", "(?<ab>a)(?<AB>b)", "ab")
g("", "(?<n>a)\\k<n>", "aa ab")
g("", "(?<n>a)\\1", "aa")
g("", "(?<n>a)|\\k<n>", "a")
g("", "(?<n>a)?\\k<n>", "x a aa")
g("", "(?<n>a)(?<m>\\k<n>)", "aa")
g("", r"(a)\1", "aa ab")
g("", r"(a)?\1", "x aa")
g("", r"(a)|\1", "a")
g("", r"(a\1)", "aa")
g("", r"(a)(b)\2\1", "abba")
g("", r"(a*)\1", "aaaa")
g("", r"(a*)+\1", "aaa")
g("", r"(a)\1{2}", "aaa")
g("", r"\1(a)", "aa")
g("", r"(a)\2", "aa")
g("", r"\1", "a")
g("", r"\9", "9")
g("", r"(a)\10", "aa0")
g("", r"(a)\1\0", "aa\x00")
g("", r"(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\10", "abcdefghijj")
g("", r"(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)\11", "abcdefghijkk", "abcdefghijka1")
g("", r"(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\11", "abcdefghija1")
g("", r"(a)\11", "aa1", "aaa")
g("", r"(a)\19", "aa9")
g("", r"(a)\100", "aa00")
g("", r"(a)\01", "a\x01")
g("", r"(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)(l)\12x", "abcdefghijkllx")
g("", "(((((((((((a)))))))))))\\11", "aa")
g("", r"(a)\1*", "aaaa")
g("", r"(a)\1+?", "aaaa")
g("", r"(a|b)\1", "ab aa bb")
g("", r"(?:(a)|b)\1", "b ba aa")
g("", r"(a)(?=\1)", "aa")
g("", r"(?<=(a))\1", "aa")
g("", r"(😀)\1", "😀😀")
g("", r"(\w+) \1", "hello hello world world x y")
g("", "(?<n>a)(?<n2>b)", "ab")
g("", "(?<_n>a)", "a")
g("", "(?<n_1>a)", "a")
g("", "(?<é>a)", "a")
g("", "(?<1a>a)", "a")
g("", "(?<a-b>a)", "a")
g("", "(?<>a)", "a")
g("", "(?<a b>a)", "a")
g("", "(?'n'a)", "a")
g("", "(?P<n>a)", "a")
g("", "(?P=n)", "a")
g("", "(?<n>a)(?<n>b)", "ab")
g("", "(?<N>a)(?<n>b)", "ab")
g("", r"\k<n>(?<n>a)", "a")
g("", r"\k<n>", "a")
g("", r"\k", "a")
g("", r"\kn", "a")
g("", r"\k<n", "a")
g("", r"\k<>", "a")
g("", r"\k<1>", "a")
g("", r"(?<n>a)\k'n'", "a")
g("", r"(?<n>a)\k{n}", "a")
g("", r"(?<n>a)\g1", "a")
g("", r"(?<n>a)\g{n}", "a")
g("", "(?<abcdefghijklmnopqrstuvwxyz0123456789>a)", "a")
g("", "(?<ABC>a)(b)(?<abc>c)", "abc")
g("", "(?<n>(?<m>a)b)", "ab")
g("", "(?:(?<n>a)|(?<m>b))+", "ab")
g("x", "(?<n> a )", "a")
g("x", "(?< n>a)", "a")
g("x", "(?<n >a)", "a")
g("x", "( ?<n>a)", "a")
g("x", "(? <n>a)", "a")
g("x", r"(a) \1", "aa")
g("x", r"(a)\ 1", "a 1")
g("x", r"\k <n>", "a")

# ---------------------------------------------------------------- quantifiers
g("", "a*", "", "baaa", "aaa")
g("", "a*?", "aaa")
g("", "a+?", "aaa")
g("", "a??", "aa")
g("", "a?", "aa")
g("", "a*+", "aaa", "baaab")
g("", "a++", "aaa")
g("", "a?+", "aaa")
g("", "a{2}+", "aaaaa")
g("", "a{2,}+", "aaaaa")
g("", "a{1,2}+a", "aaa", "aa")
g("", "a*+a", "aaa")
g("", "a++b", "aaab")
g("", "(a|ab)*+c", "ababc")
g("", "(?:a|b)*+b", "aab")
g("", "(a+)+b", "aab")
g("", "x*+y|x", "xxx")
g("", ".*+$", "abc")
g("", "[ab]*+b", "aab")
g("", r"\w++\d", "abc1")
g("", "(?:ab)++", "ababa")
g("", "(ab)++", "ababa")
g("", "(a)++", "aaa")
g("", "(a)*+a", "aaa")
g("", "(a)?+a", "a", "aa")
g("", "a{2,3}", "aaaa")
g("", "a{2,3}?", "aaaa")
g("", "a{2,}", "aaaaa")
g("", "a{2,}?", "aaaaa")
g("", "a{2}", "aaaaa")
g("", "a{0}", "aa")
g("", "a{0}b", "ab")
g("", "a{0,0}", "a")
g("", "a{0,1}", "aa")
g("", "a{0,1}?", "aa")
g("", "a{0,1}+", "aa")
g("", "a{1}", "aa")
g("", "a{01}", "aa")
g("", "a{007}", "aaaaaaa")
g("", "a{,3}", "aaa")
g("", "a{", "a{")
g("", "a{x}", "a{x}")
g("", "a{1", "a{1")
g("", "a{1,", "a{1,")
g("", "a{1,2", "a{1,2")
g("", "a{ 2}", "aa")
g("", "a{2 }", "aa")
g("", "a{2, 3}", "aaa")
g("x", "a{ 2}", "aa")
g("x", "a{2 }", "aa")
g("x", "a{2, 3}", "aaa")
g("x", "a{2 ,3}", "aaa")
g("x", "a{2,3 }", "aaa")
g("x", "a {2}", "aa")
g("x", "a* ?", "aa")
g("x", "a* +", "aa")
g("", "a{2,1}", "aa")
g("", "a{1000000}", "a")
g("", "a{2147483647}", "a")
g("", "a{2147483648}", "a")
g("", "a{0,2147483647}", "aa")
g("", "a{99999999999}", "a")
g("", "a{2}{3}", "aaaaaa")
g("", "a{2}{3}b", "aaaaaab aab")
g("", "a*{2}", "aaa")
g("", "a+{2}", "aaa")
g("", "a{2}*", "aaaaa")
g("", "a**", "aa")
g("", "a*+*", "aa")
g("", "a+*", "aa")
g("", "a*?+", "aa")
g("", "a*??", "aa")
g("", "a???", "aa")
g("", "a?*", "aa")
g("", "a++?", "aa")
g("", "a{2}+?", "aa")
g("", "a{2}?+", "aa")
g("", "{2}a", "aa")
g("", "{2}", "a")
g("", "x|{2}", "a")
g("", "({2})", "a")
g("", "(){2}", "a")
g("", "()*", "a")
g("", "(?:)*", "a")
g("", "(?:)+a", "a")
g("", "(a){2}", "aaa")
g("", "(a){0}", "a")
g("", "(a){0}\\1", "a")
g("", "(a|b){2,3}", "ababab")
g("", "(a|b){2,3}?", "ababab")
g("", "(ab){2}", "ababab")
g("", "(?:a|b)*c", "abc")
g("", "(a*){2}", "aaa")
g("", "(a*){2}b", "aab")
g("", "(a*)*b", "aab b")
g("", "(?:a*)*", "aa")
g("", "(a?){3}", "aa")
g("", "(a??){2}", "a")
g("", "(a|b)*+", "abab")
g("", "(?>a*)a", "aaa")
g("", "(?>a|ab)c", "abc", "ac")
g("", "(?>a+)b", "aab")
g("", "(?>(a)|b)+", "ab")
g("", "(?>x*)*y", "xxy")
g("", "(?>)", "a")
g("", "(?>a)*", "aa")
g("", "(?>a|)b", "b")
g("", "(?>(a+))\\1", "aaaa")
g("", "a(?>bc|b)c", "abcc", "abc")
g("", "(?>.*)x", "abx")
g("", "(?>[ab]*)b", "ab")
# Catastrophic backtracking and the stack.
# A greedy loop at the top of the pattern remembers where its iterations failed (no
# backreference anywhere in the pattern): these are polynomial.
g("", "(x+x+)+y", "x" * 40)
g("", "(a|aa)*b", "a" * 60)
g("", "(a*)*b", "a" * 60)
g("", "(?:a+)+b", "a" * 60)
g("", "(a|a)*b", "a" * 60)
g("", "(x+)+(x+)+y", "x" * 30)
# Lazy, nested, or with a backreference: exponential (the oracle's budget stops them).
g("", "(x+x+)+?y", "x" * 30)
g("", "(?:(x+x+)+y)?z", "x" * 30)
g("", "(x+x+)+y\\1", "x" * 30)
# The recursive matcher: a repeated group recurses for each iteration.
g("", "(a|b)*", "ab" * 250, "ab" * 5000)
g("", "(?:a|b)*", "ab" * 250, "ab" * 5000)
g("", "[ab]*", "ab" * 5000)
g("", "(?:ab)*", "ab" * 5000)
g("", "(a|b)*c", "ab" * 250 + "c", "ab" * 5000 + "c")
g("", "(.)*", "x" * 10000)
g("", "((a))*", "a" * 2000)
g("", "(a)*", "a" * 10000)
g("", "(a*)*", "a" * 10000)
g("", ".*x", "a" * 3000)
g("", "(?s).*?x", "a" * 10000 + "x")
g("", "(?:a|b)*?c", "ab" * 5000 + "c")
g("", "(?:(a)|b)*", "ab" * 3000)

# Captures that outlive a failed attempt: a group inside an atomic group, a look-around or a
# possessive repetition keeps what it captured when what follows fails; the match found later
# in the same find() (at a later start, or in another alternative) still reports it.
g("", "(a|ab)*+c", "ababc", "abab c")
g("", "(a)*+b", "aac b")
g("", "(a)++b", "aac ab")
g("", "(a)?+b", "ac b")
g("", "(a)?+c|b", "ab")
g("", "(a){1}+c|b", "ab")
g("", "(a|b){2}+c|x", "abx")
g("", "(?:(a)|(b))*+c|x", "abx")
g("", "x(a)*+b|y", "xaa y")
g("", "(?>(a))c|b", "ab")
g("", "(?>(a)+)c|b", "aab")
g("", "(?=(a))ac|b", "ab")
g("", "(?<=(a))c|b", "ab")
g("", "(?!(a)x)b", "a b")
g("", "(?:(a)c)?+b", "ab")
g("", "(?:(a)c)?b", "ab")
g("", "(a)*b", "aac b")
g("", "(?>(a))c|b", "ab ab")

# ---------------------------------------------------------------- look-around
g("", "a(?=b)", "ab ac")
g("", "a(?!b)", "ab ac")
g("", "(?<=a)b", "ab cb")
g("", "(?<!a)b", "ab cb")
g("", "(?<=ab|c)d", "abd cd bd")
g("", "(?<=a|bc)d", "ad bcd cd")
g("", "(?<=a{2})b", "aab ab")
g("", "(?<=a{1,3})b", "aab ab b")
g("", "(?<=a?)b", "ab b")
g("", "(?<=a*)b", "aab")
g("", "(?<=a+)b", "aab")
g("", "(?<=a{1,})b", "aab")
g("", "(?<=a{0,1000})b", "aab")
g("", "(?<=a*?)b", "aab")
g("", "(?<=a*+)b", "aab")
g("", "(?<=(a)*)b", "aab")
g("", "(?<=(?:ab)*)c", "ababc")
g("", "(?<=\\w+)x", "abx")
g("", "(?<=(a))b", "ab")
g("", "(?<=(a)\\1)b", "aab")
g("", "(?<=\\1(a))b", "aab")
g("", "(a)(?<=\\1)", "aa")
g("", "(?<n>a)(?<=\\k<n>)b", "ab")
g("", "(?<=(?=a)a)b", "ab")
g("", "(?<=a(?=b))b", "ab")
g("", "(?<=(?<=a)b)c", "abc")
g("", "(?<=^a)b", "ab cab")
g("", "(?<=\\ba)b", "ab cab")
g("", "(?<=$)", "ab")
g("", "(?<=\\R)x", "\r\nx")
g("", "(?<=\\X)x", "e\u0301x")
g("", "(?<=.)", "ab")
g("", "(?<=😀)x", "😀x")
g("", "(?<=[😀-😂])x", "😁x")
g("", "(?<=\\p{L})x", "😀xéx")
g("", "(?<=.)x", "😀x")
g("", "(?<!😀)x", "😀x")
g("", "(?<=a|😀)x", "😀x ax")
g("", "(?<=\\x{1F600})x", "😀x")
g("", "(?<=(?>a))b", "ab")
g("", "(?<=a++)b", "aab")
g("", "(?<=a{2}+)b", "aab")
g("", "(?<=ab?)c", "abc ac")
g("", "(?<=(ab|a)?)c", "abc")
g("", "(?<=a|)b", "b")
g("", "(?<=)", "a")
g("", "(?<!)", "a")
g("", "(?=)", "a")
g("", "(?!)", "a")
g("", "(?=a)+", "a")
g("", "(?=(a))\\1", "aa")
g("", "(?=(a+))a*b\\1", "baaabac")
g("", "(?!(a))\\1", "b")
g("", "(?=a|b)\\w", "abc")
g("", "a(?=b)*c", "ac")
g("", "(?<=a)*b", "ab b")
g("", "(?=.*\\d)(?=.*[a-z])\\w{6,}", "abc123 abcdef 123456")
g("", "\\b(?=\\w)", "ab cd")
g("", "(?<=\\G.)", "abc")
g("", "(?<=a.)b", "a😀b axb")
g("", "(?<=\\Ga)b", "abab")
g("", "(?<=(?:a|bc){2})d", "aad bcad bcbcd")
g("", "(?<=a{2,3}?)b", "aaab")
g("", "(?<=x\\d{1,2})y", "x12y x1y")
g("", "(?<=\\d{3})(?=\\d)", "12345")
# The look-behind's longest length is summed in an int: a greedy repetition of one character
# counts 2^31-1, and two of them wrap past it.
g("", "(?<=xa*)b", "xaab")
g("", "(?<=a*x)b", "aaxb")
g("", "(?<=a*b*)c", "aabc", "c")
g("", "(?<=a+b+)c", "aabbc")
g("", "(?<!a*b*)c", "aabc", "c")
g("", r"(?<=\w*\d*)x", "ab1x")
g("", "(?<=a{0,2147483647})b", "aab")
g("", "(?<=(?:a*){2})b", "aab")
g("", "(?<=a*|b)c", "aac bc")
g("", "(?<=a*+b*+)c", "abc")
g("", "(?<=a{1,2147483647}b{1,2147483647})c", "abc")

# ---------------------------------------------------------------- inline flags and their scope
g("", "(?i)a", "A")
g("", "(?i:a)b", "AB Ab")
g("", "(?i)(?-i:a)b", "aB AB")
g("", "a(?i)b", "aB AB")
g("", "a(?i)b|c", "C aB")
g("", "(?:a(?i)b)c", "aBC aBc")
g("", "(a(?i)b)c", "aBC aBc")
g("", "(?i)a|(?-i)b|c", "A B C")
g("", "((?i)a)b", "Ab AB")
g("", "(?i)(a)(?-i)b", "Ab AB")
g("", "(?:(?i)a|b)c", "Bc bc")
g("", "x(?i)|a", "A")
g("", "(?i:a|b)c", "Bc BC")
g("", "(?-i)a", "A")
g("i", "(?-i)a", "A a")
g("i", "(?-i:a)b", "aB AB")
g("", "(?ii)a", "A")
g("", "(?i-i)a", "A")
g("", "(?-i-i)a", "A")
g("", "(?i-)a", "A")
g("", "(?-)a", "a")
g("", "(?)a", "a")
g("", "(?:)a", "a")
g("", "(?i:)a", "a")
g("", "(?s).", "\n")
g("", "(?s:.)(?-s:.)", "\n\n", "\na")
g("", "(?m)^b", "a\nb")
g("", "(?m:^b)|^c", "a\nb\nc")
g("", "(?d).", "\r\n")
g("", "(?d)$", "a\r\n")
g("", "(?x)a b c", "abc")
g("", "(?x: a b )c d", "abc d")
g("", "(?x)a#b\nc", "ac")
g("", "(?u)é", "É")
g("", "(?c)é", "e\u0301")
g("", "(?U)\\w", "é")
g("", "(?-U)\\w", "é")
g("U", "(?-U)\\w", "é")
g("", "(?U)[[:alpha:]]", "é")
g("", "(?imsxuUdc)a", "A")
g("", "(?imsxuUdc-imsxuUdc)a", "a")
g("", "(?a)", "a")
g("", "(?L)", "a")
g("", "(?I)", "a")
g("", "(?i", "a")
g("", "(?i-", "a")
g("", "(?--i)", "a")
g("", "(?i-i-i)", "a")
g("", "(?i-m)a", "A")
g("", "(?i-ms:a.)", "A\n")
g("", "(?^)", "a")
g("", "(?i)(?<n>a)", "A")
g("", "(?i)\\p{Lu}", "a")
g("", "(?i)[k]", "\u212a")
g("", "(?iu)[k]", "\u212a")
g("", "(?i)(?u)k", "\u212a")
g("", "(?u)(?i)k", "\u212a")
g("", "(?iu)k|(?-u)k", "\u212a")
g("", "(?i)a(?i)b", "AB")
g("", "((?i))a", "A")
g("", "(?:(?i))a", "A")
g("", "(?=(?i))a", "A")
g("", "(?=(?i)a)A", "A")
g("", "(?=(?i)a)a", "A")
g("", "(?<=(?i)a)b", "Ab")
g("", "[(?i)a]", "A(")

# ---------------------------------------------------------------- comments mode
g("x", "a b c", "abc", "a b c")
g("x", "a\\ b", "a b")
g("x", "a[ ]b", "a b", "ab")
g("x", "a[\\ ]b", "a b")
g("x", "[a b]+", "a b")
g("x", "[^ a]+", "a b")
g("x", "a#comment\nb", "ab")
g("x", "a#comment", "a")
g("x", "a#c\rb", "ab")
g("x", "a#c\u0085b", "ab")
g("x", "a#c\u2028b", "ab")
g("xd", "a#c\rb", "ab", "a")
g("x", "a#c\x00b", "ab", "a\x00b")
g("x", "a#c\u0085b", "a\u0085b")
g("x", "a#c\u2028b", "a\u2028b")
g("x", "a#c\u2029b", "a\u2029b")
g("x", "a#c\rb", "a\rb")
g("xd", "a#c\nb", "ab")
g("x", "a\\#b", "a#b")
g("x", "[#]", "#")
g("x", "[a#]+", "a#")
g("x", "[a#\n]+", "a#")
g("x", "a\tb\nc\x0bd\x0ce\rf", "abcdef")
g("x", "a\u00a0b", "a\u00a0b")
g("x", "a\u2028b", "a\u2028b")
g("x", "a\u3000b", "a\u3000b")
g("x", "a\x1cb", "a\x1cb")
g("x", "a +", "aaa")
g("x", "a * ?", "aaa")
g("x", "( a ) \\1", "aa")
g("x", "\\p {L}", "a")
g("x", "\\p{ L}", "a")
g("x", "\\p{L }", "a")
g("x", "\\x 41", "A")
g("x", "\\x{ 41}", "A")
g("x", "\\u 0041", "A")
g("x", "\\0 101", "A")
g("x", "\\c A", "\x01")
g("x", "\\N{LATIN SMALL LETTER A}", "a")
g("x", "( ?: a )", "a")
g("x", "(?: a )", "a")
g("x", "(?i: a )", "A")
g("x", "(? i)a", "a")
g("x", "[a - c]+", "b")
g("x", "[a -c]+", "b-")
g("x", "[a- c]+", "b-")
g("x", "[a-c && [b]]+", "abc")
g("x", "[a-c & & [b]]+", "abc&")
g("x", "[ ^a]+", "^ab")
g("x", "[^ ]+", "a b")
g("x", "[ ]", " ")
g("x", "[\\Q \\E]", " ")
g("x", "a{1 ,2}", "aa")
g("x", "\\b {g}", "ab")
g("x", "a\\Q b\\E c", "a bc")
g("x", "a #\\Q\nb", "ab")
g("x", "(?-x) a", " a")
g("x", "(?-x:a b)c d", "a bcd")
g("x", "a b(?-x) c", "ab c")
g("x", "a#(\nb", "ab")
g("x", "a#)\nb", "ab")
g("x", "#", "a")
g("x", "", "a")
g("x", " ", "a")
g("x", "a|#\nb", "ab")
g("x", "a | b", "ab")
g("x", "a\n*", "aaa")

# ---------------------------------------------------------------- the find() loop, empty matches, surrogates
g("", "", "", "ab", "😀", "a😀b")
g("", "x*", "a😀b", "😀😀")
g("", "a*", "baaa", "😀a")
g("", "a|", "ab")
g("", "|a", "ab")
g("", "\\b|a", "a")
g("", "a??", "ab")
g("", "(?=a)|a", "aa")
g("", "$|a", "a")
g("", "\\b", "ab cd")
g("", "(?m)^", "a\nb\n")
g("", "(?m)$", "a\nb\n")
g("", "[😀]*", "a😀b")
g("", "\\P{L}*", "a😀b")
g("", "\\p{L}*", "😀a")
g("", "[^a]*", "a😀a")
g("", ".*", "😀")
g("", "(?s).*?", "😀a")
g("", "(?:😀)*", "a😀b")
g("", "\\x{1F600}*", "a😀b")
g("", "(?=\\x{1F600})", "a😀b")
g("", "(?<=\\x{1F600})", "a😀b")
g("", "(?<=\\uD83D)", "a😀b")
g("", "(?=\\uDE00)", "a😀b")
g("", "\\uDE00", "a😀b")
g("", "[\\uDE00]", "a😀b")
g("", "[\\uD800-\\uDFFF]", "a😀b")
g("", "\\p{Cs}", "a😀b")
g("", "[^\\uD83D]", "😀")
g("", "\\b", "😀a😀")
g("", "\\B", "😀😀")
g("", "\\b", "a\U0001d400b")
g("U", "\\b", "a\U0001d400b")
g("", "\\w", "\U0001d400")
g("U", "\\w", "\U0001d400")
g("", ".", "😀😀")
g("", "..", "😀")
g("", ".{2}", "😀ab")
g("", "a*?", "😀")
g("", "\\G", "😀a")
g("", "(?=.)", "😀")
g("", "(?!x)", "😀")
g("", "(?=😀)", "😀😀")
g("", "😀*", "a😀b")
g("", "^", "😀")
g("", "(?m)^", "😀\n😀")
g("", "\\X", "😀😀")
g("", "\\b{g}", "😀😀")
g("", "(?<=a)", "a😀")
g("", "(?<=.)", "😀a")
g("", "(?<=😀)", "😀a")
g("", "\\Z", "😀")
g("", "[😀a]*", "b😀")
# Within one search Java moves its start by code unit, or by code point when the pattern made
# a one-character node that is not BMP-only (a property, ., a negated class, a supplementary
# character alone) or holds a supplementary character: \B holds inside 😀 (two non-word
# halves), and only the code-unit scan stops there.
for p in [r"\B", r"\B|\x{1F600}x", r"\B|\x{1F600}", r"\B|😀x", r"\B|\p{L}x", r"\B|.x",
          r"\B|[^a]x", r"\B|\wx", r"\B|[a-z]x", r"\B|\P{L}x"]:
    g("", p, "a😀")

# ---------------------------------------------------------------- CANON_EQ
g("c", "é", "é e\u0301")
g("", "é", "é e\u0301")
g("c", "e\u0301", "é e\u0301")
g("c", "[é]", "é e\u0301")
g("c", "[e\u0301]", "é e\u0301")
g("c", "a\u030a", "å \u212b a\u030a")
g("c", "\u212b", "å \u212b a\u030a")
g("c", "é+", "ééé")
g("c", "ệ", "ệ e\u0323\u0302 ê\u0323 ẹ\u0302")
g("c", "(é)", "e\u0301")
g("c", "e", "é e\u0301")
g("c", "\u0301", "é e\u0301")
g("c", "\ufb01", "\ufb01 fi")
g("ci", "É", "é e\u0301")
g("c", "(?c)é|x", "e\u0301")
g("c", "é(", "x")
g("c", "[é", "x")
g("c", "ab(é", "x")
g("c", "가", "가 \u1100\u1161")
g("c", "\u1100\u1161", "가 \u1100\u1161")

# ---------------------------------------------------------------- real patterns on log lines
g("", r"\[WO:(?<id>[0-9a-f]{8})\] \[from (?<sender>[\w-]+)\] (?<body>.+)", LOG)
g("", r"\[RESULT (?<id>[0-9a-f]{8})\] (?<status>OK|FAIL)\b", LOG)
g("", r"\[TOOL (?<op>\w+) (?<args>\{.*?\})\]", LOG)
g("m", r"^\[(\w+)", LOG)
g("", r"— \w+", LOG)
g("U", r"— \w+", LOG)
g("", r"(?<=\] )\p{Lu}\p{Ll}+", LOG)
g("", r"\b\d+s\b", LOG)
g("", r"[^\x00-\x7F]+", LOG)
g("", r"\p{InGeneralPunctuation}", LOG)

# ---------------------------------------------------------------- malformed patterns
ERRORS = [
    # Groups and parentheses.
    "(", "(a", "((a)", "(a))", ")", "a)", "a)b", "(?:a", "(?=a", "(?<=a", "(?<n>a", "(?i:a",
    "(?", "(?<", "(?<n", "(?<n>", "(?<=", "(?<!", "(?P<n>a)", "(?P=n)", "(?P>n)", "(?#c)",
    "(?|a)", "(?'n'a)", "(?&n)", "(?R)", "(?1)", "(?+1)", "(?C)", "(?$)", "(?@)", "(?*)",
    "(?{x})", "(?(1)a|b)", "(?<=a*)b", "(?<=a+)b", "(?<=a{1,})b", "(?<!a*)b",
    "(?<=\\1)b", "(?<=(a)*)b", "(?<=x(?:ab)*)c", "(?<=a*+)b",
    "(?z)", "(?iz)", "(?i-z)", "(?--i)", "(?i--i)", "(?i:", "(?-", "(?x", "(?<1>a)", "(?<é>a)",
    "(?<a-b>a)", "(?<a b>a)", "(?<_a>a)", "(?<>a)", "(?<a>a)(?<a>b)", "(?<a", "(?<a>",
    "(?<a!>b)",
    # Quantifiers.
    "*", "+", "?", "*a", "a|*", "(*)", "(+a)", "(?:*)", "a**", "a***", "a+*", "a?*",
    "a{2}**", "a***?", "a{", "a{x}", "a{1", "a{1,", "a{1,2", "a{,3}", "a{ 2}", "a{-1}",
    "a{2,1}", "a{99999999999}", "a{2147483648}", "a{1,2147483648}", "a{1,2,3}", "{",
    "x{", "a{1}{", "|*", "^*+*", "a?{", "\\Q\\E*", "a{2}{", "a{2}{,3}",
    # Classes.
    "[", "[a", "[a-", "[a-z", "[^", "[]", "[^]", "[]a", "[[a]", "[a[b]", "[a&&", "[a&&b",
    "[a&&[b]", "[z-a]", "[b-a]x", "[\\x{41}-\\x{40}]", "[a-\\d]", "[\\d-a]", "[a-\\w]",
    "[a-\\p{L}]", "[\\p{L}-a]", "[a-[b]]", "[a-\\Qb\\E]", "[&&]", "[&&&&]", "[a&&&&]",
    "[a&&&&b]", "[&&[a]", "[a-\\Q", "[\\Q", "[\\Q]", "[\\", "[a\\", "[\\b]", "[\\B]",
    "[\\A]", "[\\z]", "[\\Z]", "[\\G]", "[\\X]", "[\\R]", "[\\1]", "[\\k<n>]", "[\\b{g}]",
    "[\\Ex]", "[a-\\v]", "[\\v-a]", "[\\h-a]", "[^\\x{10FFFF}-\\x{0}]", "[\\N{FOO}]",
    "[\\c]", "[a-]]",
    # Escapes.
    "\\", "a\\", "[a]\\", "\\C", "\\E", "\\F", "\\I", "\\J", "\\K", "\\L", "\\M", "\\O",
    "\\T", "\\U", "\\Y", "\\g", "\\i", "\\j", "\\l", "\\m", "\\o", "\\q", "\\y", "\\Ea",
    "\\x", "\\x4", "\\xG", "\\x{", "\\x{}", "\\x{41", "\\x{G}", "\\x{110000}",
    "\\x{FFFFFFFF}", "\\x{7FFFFFFF}", "\\x{ 41}", "\\x{-1}", "\\u", "\\u12", "\\u12G4",
    "\\uD83D\\u", "\\0", "\\08", "\\09", "\\0x", "\\c", "\\N", "\\N{", "\\N{FOO}",
    "\\N{LATIN SMALL LETTER A", "\\N{}", "\\N{U+41}", "\\Na", "\\k", "\\k<", "\\k<n",
    "\\k<n>", "\\k<1>", "\\kn", "(?<n>a)\\k<m>", "(?<n>a)\\k<n", "\\p", "\\p{", "\\p{L",
    "\\p{}", "\\p{Foo}", "\\p{IsFoo}", "\\p{InFoo}", "\\pX", "\\pl", "\\p{ L}", "\\p{L }",
    "\\p{isLatin}", "\\p{inGreek}", "\\p{Is}", "\\p{In}", "\\p{^L}", "\\p{gc=Foo}",
    "\\p{sc=Foo}", "\\p{blk=Foo}", "\\p{foo=Lu}", "\\p{=Lu}", "\\p{gc=}", "\\p{Greek}",
    "\\p{L&}", "\\p{Letter}", "\\p{Alphabetic}", "\\p{Cyrillic}", "\\p{LATIN}",
    "\\p{javalowercase}", "\\p{IsJavaLowerCase}", "\\p{InLatin}", "\\p{IsBasicLatin}",
    "\\p{Isαβ}", "\\p{😀}", "\\p😀", "\\b{", "\\b{g", "\\b{gx}", "\\b{w}", "\\b{}",
    "\\b{g", "\\R{", "\\Q", "a\\Q", "\\Qa\\", "\\E\\Q",
    # Odd corners.
    "a\\\\\\", "x|\\", "(\\", "[\\Q\\E", "(?x)#\\", "(?x)a\\ ", "(?x)\\", "\\x{1F600",
    "(a)(?<n>\\1", "((((((((((((((((((((a)))))))))))))))))))", "\\ud800\\udc00)",
]

# Errors whose index counts code points, after \\Q…\\E, or under comments mode and flags.
ERRORS_FLAGGED = [
    ("", "😀("), ("", "😀😀)"), ("", "é("), ("", "😀[a"), ("", "😀\\p{Foo}"),
    ("", "\\Qa.b\\E("), ("", "\\Qa(b\\E)"), ("", "\\Q12\\E)"), ("", "\\Q(\\E{"),
    ("", "a\\Q\\E)"), ("", "\\Qab\\E\\Qcd\\E)"), ("", "[\\Q]\\E"), ("", "😀\\Q😀\\E)"),
    ("x", "a b c )"), ("x", "( a"), ("x", "a # c\n)"), ("x", "[a b"), ("x", "a{1 ,2 x}"),
    ("x", "\\p {Foo}"), ("x", "(? x)"),
    ("c", "é("), ("c", "e\u0301("), ("c", "ab(é"), ("c", "[é"), ("c", "é\\p{Foo}"),
    ("i", "(?<n>a)(?<n>b)"), ("U", "\\p{Foo}"), ("U", "\\p{alpha"), ("d", "(?d"),
    ("", "\t)"), ("", "\t\t("), ("", "a\tb)"), ("", "\r\n)"), ("", "a\u2028)"),
]

# (flags, pattern, text, replacement).
REPLACEMENTS = []


def r(flags, pattern, text, *templates):
    for t in templates:
        REPLACEMENTS.append((flags, pattern, text, t))


r("", "(a)(b)?", "xaby a", "<$0>", "<$1>", "<$2>", "[$1|$2]", "$1$1", "${1}", "$01",
  "$10", "$11", "$12", "$1 0", "\\$1", "\\\\$1", "$$", "\\$", "$", "a$", "$a", "$-1",
  "$ 1", "${", "${}", "${1", "${x", "${x}", "${a-b}", "$3", "$9", "\\", "a\\", "\\a",
  "\\n", "\\t", "\\\\", "\\{", "$\\1", "\\x41", "\\u0041", "é😀", "", "$0$0", "${0}",
  "$00", "${00}", "$١", "$\u0661", "$+", "$&", "$`", "$'", "$<n>", "\\0", "\\1", "\\g<1>")
r("", "(?<n>a)(?<N2>b)?", "xaby a", "<${n}>", "<${N2}>", "<${m}>", "<$n>", "<${1}>",
  "<${n}${N2}>", "<${ n}>", "<${n }>", "<${é}>", "<${_n}>", "<${n_}>", "<${2a}>",
  "<${N}>", "<${n2}>", "${n", "$<n>", "\\${n}", "$${n}")
r("", "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)", "abcdefghijk", "$10", "$11", "$12", "$111",
  "${11}", "$1$1", "$011", "$1 1")
r("", "(a)", "aaa", "$10", "$19", "$2", "${10}")
r("", "x", "aaa", "$1", "$", "\\", "${n}", "$x", "$0")
r("", "a*", "baaa", "-", "<$0>")
r("", "", "abc", "-")
r("", "", "", "-")
r("", "$", "ab", "-")
r("", "(?m)^", "a\nb\n", "> ")
r("", "(?m)$", "a\r\nb\n", "|")
r("", "\\b", "ab cd", "|")
r("", "a|", "ab", "<$0>")
r("", "x*", "é日", "-")
# (x* on a😀b with "-" puts a "-" between the two halves of 😀: notes, not corpus.)
r("", "[😀]*", "a😀b", "-")
r("", "(?<n>\\w+)@(?<d>\\w+)", "me@host you@there", "${d}:${n}", "$2:$1")
r("", "(a)|(b)", "ab", "[$1|$2]")
r("i", "k", "kK\u212a", "x")
r("iu", "k", "kK\u212a", "x")
r("", "(?<n>a)", "a", "${n}${n}", "$1${n}$1")
r("", "(a)", "a", "$1\\", "\\$1\\$", "$$1", "\\\\\\$")
r("", r"(\w+) (\w+)", "hello world", "$2 $1", "${2} ${1}", "\\$2 $1")
r("", "(?<first>\\w)(\\w)", "ab", "${first}$2", "$2${first}")
r("", "(?<a>x)(?<b>y)(?<c>z)(?<d>w)(?<e>v)(?<f>u)(?<g>t)(?<h>s)(?<i>r)(?<j>q)", "xyzwvutsrq",
  "$10", "${j}", "$1${j}")
r("", "😀", "a😀b", "$0$0", "é")
r("", "(😀)", "a😀b", "[$1]")
r("", ".", "😀", "[$0]")


def cases():
    seen = set()
    out = []

    def add(pattern, flags, text, replace=None):
        key = (pattern, flags, text, replace)
        if key in seen:
            return
        seen.add(key)
        c = {"pattern": pattern, "text": text}
        if flags:
            c["flags"] = flags
        if replace is not None:
            c["replace"] = replace
        out.append(c)

    for flags, pattern, texts in GROUPS:
        for text in texts:
            add(pattern, flags, text)
    for pattern in ERRORS:
        add(pattern, "", "")
    for flags, pattern in ERRORS_FLAGGED:
        add(pattern, flags, "")
    for flags, pattern, text, template in REPLACEMENTS:
        add(pattern, flags, text, template)
    for c in out:
        for key in ("pattern", "text", "replace"):
            s = c.get(key)
            if s is not None and any(0xD800 <= ord(ch) <= 0xDFFF for ch in s):
                sys.exit(f"a lone surrogate in a case's {key}: {c!r}")
    return out


# ---------------------------------------------------------------- the JDKs


def java_version(java):
    """(major, version) of a java launcher: its home's release file, else `java -version`."""
    real = os.path.realpath(java)
    home = os.path.dirname(os.path.dirname(real))
    release = os.path.join(home, "release")
    version = None
    modules = None
    if os.path.isfile(release):
        with open(release, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.match(r'(\w+)="?(.*?)"?\s*$', line)
                if m and m.group(1) == "JAVA_VERSION":
                    version = m.group(2)
                if m and m.group(1) == "MODULES":
                    modules = m.group(2).split()
    if version is None:
        out = subprocess.run([java, "-version"], capture_output=True, text=True)
        m = re.search(r'version "([^"]+)"', out.stderr)
        if not m:
            return None
        version = m.group(1)
    if modules is not None and "jdk.compiler" not in modules:
        return None
    parts = [int(x) for x in re.findall(r"\d+", version)]
    major = parts[1] if parts[0] == 1 else parts[0]
    return major, version


def java_homes():
    """{major: (version, java)}, as rxw_testkit::java_homes finds them."""
    candidates = []
    for key in sorted(os.environ):
        if re.fullmatch(r"RXW_JAVA\d+", key) and os.environ[key]:
            candidates.append((0, os.environ[key]))
    candidates += [(1, p) for p in sorted(glob.glob("/usr/lib/jvm/*"))]
    if shutil.which("java"):
        candidates.append((2, shutil.which("java")))
    seen = set()
    found = {}
    for priority, path in candidates:
        java = os.path.join(path, "bin", "java") if os.path.isdir(path) else path
        if not os.path.isfile(java):
            continue
        real = os.path.realpath(java)
        if real in seen:
            continue
        seen.add(real)
        v = java_version(java)
        if v is None:
            continue
        major, version = v
        key = (priority, [-int(x) for x in re.findall(r"\d+", version)])
        if major not in found or key < found[major][0]:
            found[major] = (key, version, java)
    return {m: (v, j) for m, (_, v, j) in sorted(found.items())}


def run_java(java, all_cases):
    # ensure_ascii: every non-ASCII character as \\u escapes (pairs for the astral ones).
    body = jsonl(all_cases, ensure_ascii=True)
    env = {k: v for k, v in os.environ.items()
           if k not in ("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS")}
    out = subprocess.run(
        [java, "--add-opens", "java.base/java.util.regex=ALL-UNNAMED", ORACLE],
        input=body, capture_output=True, env=env)
    if out.returncode != 0:
        sys.exit(f"{java}: the oracle failed ({out.returncode}): {out.stderr.decode()[-2000:]}")
    return answers_to(all_cases, out.stdout)


def has_lone_surrogate(value):
    if isinstance(value, str):
        return any(0xD800 <= ord(ch) <= 0xDFFF for ch in value)
    if isinstance(value, dict):
        return any(has_lone_surrogate(v) for v in value.values())
    if isinstance(value, list):
        return any(has_lone_surrogate(v) for v in value)
    return False


def kind(answer):
    for k in ("error", "error_runtime", "timeout"):
        if k in answer:
            return k
    return "matches"


# ---------------------------------------------------------------- Python's re, for comparison


def utf16_offsets(text):
    """Code point offset -> UTF-16 offset, for every offset 0..len(text)."""
    out = [0]
    for ch in text:
        out.append(out[-1] + (2 if ord(ch) > 0xFFFF else 1))
    return out


def python_answer(case):
    flags = 0
    for letter in case.get("flags", ""):
        if letter in "uU":
            continue
        flags |= {"i": re.I, "m": re.M, "s": re.S, "x": re.X}[letter]
    try:
        rx = re.compile(case["pattern"], flags)
    except re.error as e:
        return {"error": str(e)}
    except (RecursionError, OverflowError) as e:
        return {"error_runtime": type(e).__name__}
    names = [""] * (rx.groups + 1)
    for name, index in rx.groupindex.items():
        names[index] = name
    conv = utf16_offsets(case["text"])
    matches = []
    for m in rx.finditer(case["text"]):
        flat = []
        for gi in range(rx.groups + 1):
            s, e = m.span(gi)
            flat += [conv[s], conv[e]] if s != -1 else [-1, -1]
        matches.append(flat)
    return {"names": names, "matches": matches}


def python_worker():
    """Answers one JSON case a line with python_answer (run as a child, so a case that
    backtracks for ever can be stopped)."""
    for line in sys.stdin:
        sys.stdout.write(json.dumps(python_answer(json.loads(line))) + "\n")
        sys.stdout.flush()


class PythonCases:
    """A child Python answering cases one at a time; a case that takes longer than `limit`
    seconds is answered {"timeout": true} and the child is started again."""

    def __init__(self, limit=2.0):
        self.limit = limit
        self.child = None

    def start(self):
        self.child = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--python-worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8",
            errors="surrogatepass")

    def ask(self, case):
        import select
        if self.child is None:
            self.start()
        self.child.stdin.write(json.dumps(case) + "\n")
        self.child.stdin.flush()
        ready, _, _ = select.select([self.child.stdout], [], [], self.limit)
        if not ready:
            self.child.kill()
            self.child.wait()
            self.child = None
            return {"timeout": True}
        return json.loads(self.child.stdout.readline())

    def close(self):
        if self.child is not None:
            self.child.stdin.close()
            self.child.wait()


def compare_python(all_cases, answers, major):
    if sys.version_info[:2] != (3, 11):
        print(f"note: this is Python {sys.version.split()[0]}; rxw's sre flavor is 3.11's",
              file=sys.stderr)
    kinds = {}
    python = PythonCases()
    for case, a in zip(all_cases, answers):
        if any(f in case.get("flags", "") for f in "dc") or "replace" in case:
            continue
        if "timeout" in a or "error_runtime" in a or len(case["text"]) > 1000:
            continue
        p = python.ask(case)
        if "timeout" in p:
            k = "Python backtracks past 2 s"
        elif "error" in a or "error" in p:
            if "error" in a and "error" in p:
                continue
            k = "Java refuses, Python compiles" if "error" in a else "Python refuses, Java compiles"
        elif "matches" not in p:
            k = "Python fails at run time"
        elif a["matches"] != p["matches"]:
            k = "matches"
        elif a["names"] != p["names"]:
            k = "names"
        else:
            continue
        kinds.setdefault(k, []).append((case, a, p))
    python.close()
    report_differences(kinds, f"Java {major}", ("java", "py  "))


def check(all_cases, diff, python, dump):
    homes = java_homes()
    if not homes:
        sys.exit("no JDK found")
    answers = {}
    for major, (version, java) in homes.items():
        a = run_java(java, all_cases)
        answers[major] = a
        counts = {}
        for x in a:
            counts[kind(x)] = counts.get(kind(x), 0) + 1
        repl = sum(1 for x in a if "replace_error" in x)
        print(f"Java {version}: {len(a)} cases answered: {counts.get('matches', 0)} compile, "
              f"{counts.get('error', 0)} refused, {counts.get('error_runtime', 0)} runtime errors, "
              f"{counts.get('timeout', 0)} timeouts, {repl} replacements refused", file=sys.stderr)
        lone = [case for case, x in zip(all_cases, a) if has_lone_surrogate(x)]
        for case in lone:
            print(f"    a lone surrogate in Java {major}'s answer to {short(case)}", file=sys.stderr)
        if lone:
            sys.exit("the corpus must not hold a case whose answer splits a surrogate pair "
                     "(rxw's texts are Rust strings): move it to the notes")
        if dump:
            os.makedirs(dump, exist_ok=True)
            with open(os.path.join(dump, f"java{major}.jsonl"), "w", encoding="utf-8") as f:
                for case, x in zip(all_cases, a):
                    line = {"case": case, "answer": x}
                    f.write(json.dumps(line, ensure_ascii=has_lone_surrogate(x)) + "\n")
    majors = sorted(answers)
    if diff and len(majors) > 1:
        for i in range(len(majors) - 1):
            m1, m2 = majors[i], majors[i + 1]
            differ = [(c, x, y) for c, x, y in zip(all_cases, answers[m1], answers[m2]) if x != y]
            print(f"Java {m1} and Java {m2}: {len(differ)} cases answer differently",
                  file=sys.stderr)
            for c, x, y in differ:
                print(f"    {short(c, 140)}", file=sys.stderr)
                print(f"        {m1}: {short(x)}", file=sys.stderr)
                print(f"        {m2}: {short(y)}", file=sys.stderr)
    if python:
        compare_python(all_cases, answers[majors[-1]], majors[-1])


def main():
    ap = arguments("java_cases.jsonl")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--diff", action="store_true")
    ap.add_argument("--python", action="store_true")
    ap.add_argument("--dump")
    ap.add_argument("--python-worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.python_worker:
        python_worker()
        return
    all_cases = cases()
    write_cases(args.out, all_cases)
    if args.check or args.diff or args.python or args.dump:
        check(all_cases, args.diff, args.python, args.dump)


if __name__ == "__main__":
    main()
