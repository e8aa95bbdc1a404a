"""Differential oracle: runs cases through RE2 as the `google-re2` package exposes it to Python
(`import re2`) and prints the results as JSON lines.

Input (stdin): one JSON object a line, {"pattern", "text", "replace" (optional), "rewrite"
(optional)}.
Output: one line for each, in order:

- {"error": text} when `re2.compile` refuses the pattern: RE2's own status text, decoded from
  the bytes the package raises (`missing ): (a`), with nothing added;
- else {"names": [...], "matches": [[start, end, g1s, g1e, ...], ...], "replaced": ...}:
  - "names": the group names by index as Go's SubexpNames gives them ("" for index 0 and for
    an unnamed group). They come from the package's `groupindex`, which keeps the FIRST group
    of a repeated name (RE2 accepts `(?P<n>a)(?P<n>b)`): a later group of the same name is ""
    here, as it is to every user of the package (`m.group('n')` is the first).
  - "matches": every match of `finditer(text)` with `text` a str, the loop a Python user of
    google-re2 runs: each search starts where the previous match ended; when a match is empty
    AND at the search's start, the next search starts one character (code point) later. An
    empty match found AFTER the search's start is therefore found again by the next search,
    which starts on it, and reported twice (`finditer('$', 'ab')` gives (2, 2) twice). Offsets
    are UTF-8 byte offsets, -1 for a group that did not take part: the byte spans RE2 itself
    returned for each match the package yields (`finditer` on a str reports code points; the
    oracle records the spans underneath, so an offset inside a character, from `\\C` or from
    `\\B` between two bytes of one, keeps its exact bytes; up to such an offset they are checked
    to be the code points converted). Other programs run other loops around the same RE2
    (ClickHouse's extractAll, RE2's own GlobalReplace): crates/rxw-syntax/gen/re2_notes.md,
    section 10.
  - "replaced" (only when "replace" is given): `sub(replace, text)`, which runs the same loop
    and expands the template with `Match.expand`: `\\1`-`\\99`, `\\g<n>`, `\\g<name>`; a
    three-digit octal `\\101` is a character, not group 10; everything between the group
    references goes through Python's `unicode_escape` codec (so `\\n`, `\\x41`, `\\u00e9`,
    `\\N{...}` are characters, an unknown `\\q` stays, and a non-ASCII character of the
    template comes out as its UTF-8 bytes read as Latin-1: `é` gives `Ã©`); an unset group is
    the empty text.
  - "replace_error" instead of "replaced" when `sub` raises: "IndexError: bad group index"
    (`\\5` with fewer groups), "IndexError: bad group name", or "UnicodeDecodeError: ..." (a
    template ending in `\\`, a bad `\\x`); or "UnicodeEncodeError: ..." when the result
    holds a lone surrogate (a `\\ud800` in the template), which the output cannot carry.

- "global": every match as RE2's own find-all loop finds it, the loop of `RE2::GlobalReplace`
  (re2.cc), run here on the package's `RE2::Match` over the UTF-8 text: each search starts
  where the previous match ended, and an empty match where the previous match ended is
  skipped by one character (or one byte where the text does not decode). Offsets are bytes,
  -1 for a group that did not take part. This is the loop rxw's `re2` flavor runs (the
  package's `finditer` above reports some empty matches twice, a quirk of the binding).
- "rewritten" (only when "rewrite" is given): the text with every "global" match replaced by
  the template as `RE2::Rewrite` expands it: `\\0`-`\\9` the match or a group (an unset group
  is empty), `\\\\` a backslash, anything else copied. "rewrite_error" instead when
  `RE2::CheckRewriteString` refuses the template, with its text: a `\\` at the end or before
  anything but a digit or `\\`, or a group the pattern does not have. The package exposes
  neither function, so the oracle carries out those two short rules of re2.cc on RE2's own
  spans.

The options are the package's defaults except `log_errors`, which is turned off: it only
decides whether RE2 also prints the error on standard error (the error text is the same).

Each line is flushed as it is written, so a caller may keep the oracle running and ask one case
at a time; a blank line is skipped and gets no answer. A line that is not such an object, or a
pattern or text that is not valid Unicode (a lone surrogate), stops the oracle with status 2.

Run by rxw_testkit::re2_oracle_answers with a Python that has google-re2; only the standard
library besides it.
"""
import json
import sys

import re2

_ANCHOR = re2._re2.RE2.Anchor
OPTIONS = re2.Options()
OPTIONS.log_errors = False


class _Recorder:
    """Stands in for the package's RE2 object and keeps the byte spans of every match found."""

    __slots__ = ("_inner", "spans")

    def __init__(self, inner):
        self._inner = inner
        self.spans = []

    def Match(self, anchor, text, pos, endpos):
        spans = self._inner.Match(anchor, text, pos, endpos)
        if spans[0] != (-1, -1):
            self.spans.append([tuple(s) for s in spans])
        return spans

    def __getattr__(self, name):
        return getattr(self._inner, name)


def _byte_offsets(text):
    """Code point offset -> UTF-8 byte offset, for every offset 0..len(text)."""
    out = [0]
    for ch in text:
        out.append(out[-1] + len(ch.encode("utf-8")))
    return out


def _matches(rx, text):
    # The package's own loop (its _Regexp.finditer) on a twin of the compiled pattern whose RE2
    # object records the byte spans of each match it yields.
    twin = object.__new__(type(rx))
    twin._pattern = rx._pattern
    twin._regexp = _Recorder(rx._regexp)
    found = list(twin.finditer(text))
    recorded = twin._regexp.spans
    # The same loop through the public object, in code points: the two must agree, and the
    # byte spans must be the code point spans converted, up to the first offset inside a
    # character (`\C`, or `\B` between two bytes of one character): from there on the
    # package's own code point offsets are off (it counts the piece of a character as one).
    public = list(rx.finditer(text))
    if not len(found) == len(recorded) == len(public):
        raise AssertionError(f"{len(public)} matches, {len(found)} yielded to the recorder, "
                             f"{len(recorded)} spans recorded")
    to_bytes = _byte_offsets(text)
    boundaries = set(to_bytes)
    aligned = True
    out = []
    for m, spans in zip(public, recorded):
        if any(o != -1 and o not in boundaries for span in spans for o in span):
            aligned = False
        flat = []
        for g, (s, e) in enumerate(spans):
            cs, ce = m.span(g)
            if ((cs, ce) == (-1, -1)) != ((s, e) == (-1, -1)):
                raise AssertionError(f"group {g}: bytes {s}..{e}, code points {cs}..{ce}")
            if aligned and s != -1 and (to_bytes[cs], to_bytes[ce]) != (s, e):
                raise AssertionError(f"group {g}: bytes {s}..{e}, code points {cs}..{ce}")
            flat += [s, e]
        out.append(flat)
    return out


def _global_spans(rx, data):
    """RE2::GlobalReplace's loop over `data` (bytes): the byte spans of each match it rewrites."""
    out = []
    p, lastend = 0, -1
    while p <= len(data):
        spans = rx._regexp.Match(_ANCHOR.UNANCHORED, data, p, len(data))
        if spans[0] == (-1, -1):
            break
        s, e = spans[0]
        if s == e and s == lastend:
            # Disallow an empty match at the end of the last match: skip one character ahead
            # (one byte where the text does not decode there).
            step = 1
            for n in (1, 2, 3, 4):
                try:
                    data[p:p + n].decode("utf-8")
                    step = n
                    break
                except UnicodeDecodeError:
                    continue
            p += step
            continue
        out.append([tuple(x) for x in spans])
        p = e
        lastend = p
    return out


def _check_rewrite(template, groups):
    """RE2::CheckRewriteString's verdict on `template`: None, or its error text."""
    t = template.encode("utf-8")
    most = -1
    i = 0
    while i < len(t):
        if t[i] != 0x5C:
            i += 1
            continue
        i += 1
        if i == len(t):
            return "Rewrite schema error: '\\' not allowed at end."
        c = t[i]
        i += 1
        if c == 0x5C:
            continue
        if not 0x30 <= c <= 0x39:
            return "Rewrite schema error: '\\' must be followed by a digit or '\\'."
        most = max(most, c - 0x30)
    if most > groups:
        return (f"Rewrite schema requests {most} matches, but the regexp only has {groups} "
                "parenthesized subexpressions.")
    return None


def _rewrite(template, data, spans):
    """RE2::Rewrite of `template` for each match, with the text between matches kept."""
    t = template.encode("utf-8")
    out = bytearray()
    done = 0
    for m in spans:
        s, e = m[0]
        out += data[done:s]
        i = 0
        while i < len(t):
            if t[i] != 0x5C:
                out.append(t[i])
                i += 1
                continue
            c = t[i + 1]
            i += 2
            if c == 0x5C:
                out.append(0x5C)
            else:
                gs, ge = m[c - 0x30]
                if gs != -1:
                    out += data[gs:ge]
        done = e
    out += data[done:]
    return out.decode("utf-8", "replace")


def _names(rx):
    names = [""] * (rx.groups + 1)
    for name, index in rx.groupindex.items():
        names[index] = name
    return names


def run(case):
    pattern, text = case["pattern"], case["text"]
    try:
        rx = re2.compile(pattern, OPTIONS)
    except re2.error as e:
        msg = e.args[0] if e.args else ""
        if isinstance(msg, bytes):
            msg = msg.decode("utf-8", "replace")
        return {"error": msg}
    data = text.encode("utf-8")
    spans = _global_spans(rx, data)
    out = {
        "names": _names(rx),
        "matches": _matches(rx, text),
        "global": [[o for span in m for o in span] for m in spans],
    }
    if isinstance(case.get("rewrite"), str):
        problem = _check_rewrite(case["rewrite"], rx.groups)
        if problem is None:
            out["rewritten"] = _rewrite(case["rewrite"], data, spans)
        else:
            out["rewrite_error"] = problem
    if "replace" in case and case["replace"] is not None:
        try:
            replaced = rx.sub(case["replace"], text)
            # `\ud800` in a template gives a lone surrogate, which no UTF-8 output can carry.
            replaced.encode("utf-8")
            out["replaced"] = replaced
        except (IndexError, UnicodeDecodeError, UnicodeEncodeError, re2.error) as e:
            out["replace_error"] = f"{type(e).__name__}: {e}"
    return out


def main():
    sys.stdin.reconfigure(encoding="utf-8")
    sys.stdout.reconfigure(encoding="utf-8")
    for n, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            case = json.loads(line)
            if not isinstance(case.get("pattern"), str) or not isinstance(case.get("text"), str):
                raise ValueError('want {"pattern", "text"} strings')
            case["pattern"].encode("utf-8")
            case["text"].encode("utf-8")
            for key in ("replace", "rewrite"):
                if isinstance(case.get(key), str):
                    case[key].encode("utf-8")
        except (ValueError, UnicodeEncodeError, AttributeError) as e:
            print(f"re2_oracle: line {n}: {e}", file=sys.stderr)
            sys.exit(2)
        answer = run(case)
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
