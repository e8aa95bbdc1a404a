"""Differential oracle: runs cases through the real libpcre2-8 (the shared library Debian's
`libpcre2-8-0` installs, PCRE2 10.42), called through ctypes, and prints the results as JSON
lines.

Input (stdin): one JSON object a line, {"pattern", "text", "flags" (optional letters of
`imsxu`), "replace" (optional)}.
Output: one line for each, in order:

- {"error": text, "offset": n} when `pcre2_compile` refuses the pattern: the text of
  `pcre2_get_error_message` for its error code, and the byte offset it reports;
- else {"names": [...], "matches": [[start, end, g1s, g1e, ...], ...], "replaced": ...}:
  - "names": the group names by number from the name table ("" for group 0 and an unnamed
    group);
  - "matches": every match of pcre2demo's global loop: each search starts where the previous
    match ended; after an empty match the search is first retried at the same place with
    PCRE2_NOTEMPTY_ATSTART | PCRE2_ANCHORED, and when that fails the search goes on one
    character later (the newline is LF, so never two). Offsets are UTF-8 byte offsets, -1 for
    a group that did not take part;
  - "replaced" (when "replace" is given): `pcre2_substitute` with PCRE2_SUBSTITUTE_GLOBAL,
    the template in its own syntax (`$1`, `${1}`, `$name`, `${name}`, `$$`); or
    "replace_error" with the library's text when it refuses.
- {"limit": text} instead of "matches" when a search stops at the match limit (the library's
  default, 10,000,000) or another resource limit: no answer to compare with, and the proof of
  a ReDoS attack.

The compile options are PCRE2_UTF always, and a flag letter each: i CASELESS, m MULTILINE,
s DOTALL, x EXTENDED, u UCP. A "version" line (`{"version": true}`) answers
{"version": "10.42 2022-12-11", "unicode": "14.0.0"}.

Run by rxw_testkit::pcre2_oracle_answers with python3; only the standard library.
"""
import ctypes
import ctypes.util
import sys

from json_lines import answer_lines

_lib = None
for name in ("libpcre2-8.so.0", ctypes.util.find_library("pcre2-8")):
    if not name:
        continue
    try:
        _lib = ctypes.CDLL(name)
        break
    except OSError:
        continue
if _lib is None:
    sys.stderr.write("libpcre2-8 is not installed\n")
    sys.exit(3)

UTF = 0x00080000
FLAGS = {"i": 0x8, "m": 0x400, "s": 0x20, "x": 0x80, "u": 0x00020000}
ANCHORED = 0x80000000
NOTEMPTY_ATSTART = 0x8
SUBSTITUTE_GLOBAL = 0x100
SUBSTITUTE_OVERFLOW_LENGTH = 0x1000
NOMATCH = -1
NOMEMORY = -48
INFO_CAPTURECOUNT, INFO_NAMECOUNT, INFO_NAMEENTRYSIZE, INFO_NAMETABLE = 4, 17, 18, 19

P = ctypes.c_void_p
SIZE = ctypes.c_size_t
_lib.pcre2_compile_8.restype = P
_lib.pcre2_compile_8.argtypes = [ctypes.c_char_p, SIZE, ctypes.c_uint32,
                                 ctypes.POINTER(ctypes.c_int), ctypes.POINTER(SIZE), P]
_lib.pcre2_code_free_8.argtypes = [P]
_lib.pcre2_match_data_create_from_pattern_8.restype = P
_lib.pcre2_match_data_create_from_pattern_8.argtypes = [P, P]
_lib.pcre2_match_data_free_8.argtypes = [P]
_lib.pcre2_match_8.argtypes = [P, ctypes.c_char_p, SIZE, SIZE, ctypes.c_uint32, P, P]
_lib.pcre2_get_ovector_pointer_8.restype = ctypes.POINTER(SIZE)
_lib.pcre2_get_ovector_pointer_8.argtypes = [P]
_lib.pcre2_get_error_message_8.argtypes = [ctypes.c_int, ctypes.c_char_p, SIZE]
_lib.pcre2_pattern_info_8.argtypes = [P, ctypes.c_uint32, P]
_lib.pcre2_substitute_8.argtypes = [P, ctypes.c_char_p, SIZE, SIZE, ctypes.c_uint32, P, P,
                                    ctypes.c_char_p, SIZE, ctypes.c_char_p, ctypes.POINTER(SIZE)]
_lib.pcre2_config_8.argtypes = [ctypes.c_uint32, P]

UNSET = ctypes.c_size_t(-1).value


def _message(code):
    buf = ctypes.create_string_buffer(256)
    _lib.pcre2_get_error_message_8(code, buf, 256)
    return buf.value.decode("utf-8", "replace")


def _info_u32(code, what):
    out = ctypes.c_uint32()
    _lib.pcre2_pattern_info_8(code, what, ctypes.byref(out))
    return out.value


def _names(code, groups):
    names = [""] * (groups + 1)
    count = _info_u32(code, INFO_NAMECOUNT)
    size = _info_u32(code, INFO_NAMEENTRYSIZE)
    table = ctypes.c_void_p()
    _lib.pcre2_pattern_info_8(code, INFO_NAMETABLE, ctypes.byref(table))
    for i in range(count):
        entry = ctypes.string_at(table.value + i * size, size)
        number = entry[0] << 8 | entry[1]
        name = entry[2:].split(b"\0", 1)[0].decode("utf-8")
        if number <= groups and not names[number]:
            names[number] = name
    return names


def _matches(code, data, groups):
    md = _lib.pcre2_match_data_create_from_pattern_8(code, None)
    try:
        out = []
        start, options = 0, 0
        while start <= len(data):
            rc = _lib.pcre2_match_8(code, data, len(data), start, options, md, None)
            if rc == NOMATCH:
                if options == 0:
                    break
                # The retry after an empty match failed: one character on.
                start += 1
                while start < len(data) and (data[start] & 0xC0) == 0x80:
                    start += 1
                options = 0
                continue
            if rc < 0:
                return None, _message(rc)
            ov = _lib.pcre2_get_ovector_pointer_8(md)
            flat = []
            for g in range(groups + 1):
                s, e = ov[2 * g], ov[2 * g + 1]
                if g >= rc or s == UNSET:
                    flat += [-1, -1]
                else:
                    flat += [s, e]
            out.append(flat)
            s, e = ov[0], ov[1]
            # \K may put the start after the end: the loop goes on from the end.
            start = e
            options = NOTEMPTY_ATSTART | ANCHORED if s == e else 0
        return out, None
    finally:
        _lib.pcre2_match_data_free_8(md)


def _substitute(code, data, template):
    t = template.encode("utf-8")
    size = SIZE(max(256, 4 * (len(data) + len(t)) + 64))
    for _ in range(2):
        buf = ctypes.create_string_buffer(size.value + 1)
        length = SIZE(size.value)
        rc = _lib.pcre2_substitute_8(code, data, len(data), 0,
                                     SUBSTITUTE_GLOBAL | SUBSTITUTE_OVERFLOW_LENGTH, None, None,
                                     t, len(t), buf, ctypes.byref(length))
        if rc == NOMEMORY:
            size = SIZE(length.value + 1)
            continue
        if rc < 0:
            return None, _message(rc)
        return buf.raw[:length.value].decode("utf-8"), None
    return None, "output too long"


def answer(case):
    if case.get("version"):
        buf = ctypes.create_string_buffer(64)
        _lib.pcre2_config_8(11, buf)
        uni = ctypes.create_string_buffer(64)
        _lib.pcre2_config_8(10, uni)
        return {"version": buf.value.decode(), "unicode": uni.value.decode()}
    options = UTF
    for letter in case.get("flags", ""):
        options |= FLAGS[letter]
    pattern = case["pattern"].encode("utf-8")
    err = ctypes.c_int()
    offset = SIZE()
    code = _lib.pcre2_compile_8(pattern, len(pattern), options, ctypes.byref(err),
                                ctypes.byref(offset), None)
    if not code:
        return {"error": _message(err.value), "offset": offset.value}
    try:
        groups = _info_u32(code, INFO_CAPTURECOUNT)
        data = case["text"].encode("utf-8")
        matches, limit = _matches(code, data, groups)
        if limit is not None:
            return {"limit": limit}
        out = {"names": _names(code, groups), "matches": matches}
        if "replace" in case:
            replaced, error = _substitute(code, data, case["replace"])
            if error is None:
                out["replaced"] = replaced
            else:
                out["replace_error"] = error
        return out
    finally:
        _lib.pcre2_code_free_8(code)


if __name__ == "__main__":
    answer_lines(answer, ensure_ascii=False)
