#!/usr/bin/env python3
"""Writes java_cases.jsonl: the hand-written (pattern, flags, text, replacement) cases of Java's
java.util.regex (java_case_table.jsonl, and the malformed patterns below), each once, for the
differential suite of rxw's Java flavors (`java@17`, `java@25`): each case runs through the real
engine (tests/oracle/JavaOracle.java, run by rxw_testkit::java_oracle_answers under each JDK)
and, once the flavor exists, through rxw.

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

from record_common import LOG, ROOT, UNI, answers_to, arguments, case_table, jsonl, \
    report_differences, short, table_text, write_cases

ORACLE = os.path.join(ROOT, "tests", "oracle", "JavaOracle.java")

# The texts the case table names (and UNI, LOG).
LINES = "a\nb\r\nc\rd\u0085e\u2028f\u2029g"
WS = "a \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\u0085\u00a0\u1680\u2000\u2007\u200b\u2028\u202f\u205f\u3000\ufeffb"
DIGITS = "0123 ٣٤ ४ ０１ ¹² ⅷ ½ 𝟘 a"
EMOJI = "a😀b👍🏽c🇫🇷d👨‍👩‍👧e"
CASES_I = "kK\u212a sSſ iIİı σςΣ ßẞ ǅǄǆ µΜμ åÅ\u212b ÿŸ ﬀ ΐ\u1fd3"

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

    named = {"UNI": UNI, "LOG": LOG, "LINES": LINES, "WS": WS, "DIGITS": DIGITS, "EMOJI": EMOJI,
             "CASES_I": CASES_I}
    replacements = []
    for row in case_table("java_case_table.jsonl"):
        if isinstance(row, list):
            pattern, flags, texts = row
            for text in texts:
                add(table_text(pattern, named), flags, table_text(text, named))
        elif "each" in row:
            for name in row["each"]:
                for flags in row["flags"]:
                    for text in row["texts"]:
                        add(table_text(row["pattern"], named) % name, flags,
                            table_text(text, named))
        else:
            replacements.append(row)
    for pattern in ERRORS:
        add(pattern, "", "")
    for flags, pattern in ERRORS_FLAGGED:
        add(pattern, flags, "")
    for row in replacements:
        for template in row["replace"]:
            add(table_text(row["pattern"], named), row["flags"], table_text(row["text"], named),
                table_text(template, named))
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
