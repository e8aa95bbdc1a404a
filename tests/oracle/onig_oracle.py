"""Differential oracle: runs cases through the Oniguruma C library (Debian's libonig5, 6.9.8)
with its own syntax (ONIG_SYNTAX_ONIGURUMA) and UTF-8, and prints the results as JSON lines.

Input (stdin): one JSON object a line, {"pattern", "flags" (letters of "imx"), "text"}.
Output: one line for each, in order:

- {"error": text} when onig_new refuses the pattern: onig_error_code_to_str's text;
- else {"names": [...], "matches": [[[s, e] | null, ...], ...], "version": "6.9.8"}: the
  group names by number (null for a group without one, "" for group 0), and every match of
  the library's own search loop (onig_scan's: each search starts where the previous match
  ended; after an empty match, one character later), the spans of the match and its groups
  in UTF-8 bytes.

The flags are ONIG_OPTION_IGNORECASE (i), ONIG_OPTION_MULTILINE (m: dot-all) and
ONIG_OPTION_EXTEND (x). The library is loaded with ctypes ($RXW_LIBONIG names another file);
only the standard library is needed. Run by rxw_testkit::onig_oracle_answers.
"""
import ctypes
import os

from json_lines import answer_lines

LIB = ctypes.CDLL(os.environ.get("RXW_LIBONIG") or "libonig.so.5")
ONIG_OPTION_IGNORECASE = 1
ONIG_OPTION_EXTEND = 2
ONIG_OPTION_MULTILINE = 4
ONIG_MISMATCH = -1
MAX_ERROR = 256


class ErrorInfo(ctypes.Structure):
    _fields_ = [("enc", ctypes.c_void_p), ("par", ctypes.c_void_p), ("par_end", ctypes.c_void_p)]


class Region(ctypes.Structure):
    _fields_ = [
        ("allocated", ctypes.c_int),
        ("num_regs", ctypes.c_int),
        ("beg", ctypes.POINTER(ctypes.c_int)),
        ("end", ctypes.POINTER(ctypes.c_int)),
        ("history_root", ctypes.c_void_p),
    ]


UTF8 = ctypes.c_void_p.in_dll(LIB, "OnigEncodingUTF8")
UTF8_PTR = ctypes.cast(ctypes.pointer(UTF8), ctypes.c_void_p)
SYNTAX = ctypes.cast(ctypes.addressof(ctypes.c_char.in_dll(LIB, "OnigSyntaxOniguruma")), ctypes.c_void_p)

LIB.onig_initialize.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int]
encs = (ctypes.c_void_p * 1)(UTF8_PTR.value)
LIB.onig_initialize(encs, 1)
LIB.onig_new.argtypes = [
    ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint,
    ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ErrorInfo),
]
LIB.onig_search.argtypes = [
    ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
    ctypes.POINTER(Region), ctypes.c_uint,
]
LIB.onig_region_new.restype = ctypes.POINTER(Region)
LIB.onig_region_free.argtypes = [ctypes.POINTER(Region), ctypes.c_int]
LIB.onig_free.argtypes = [ctypes.c_void_p]
LIB.onig_number_of_captures.argtypes = [ctypes.c_void_p]
LIB.onig_version.restype = ctypes.c_char_p
NAME_CALLBACK = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int,
    ctypes.POINTER(ctypes.c_int), ctypes.c_void_p, ctypes.c_void_p,
)
LIB.onig_foreach_name.argtypes = [ctypes.c_void_p, NAME_CALLBACK, ctypes.c_void_p]
VERSION = LIB.onig_version().decode()


def error_text(code, info):
    buf = ctypes.create_string_buffer(MAX_ERROR)
    n = LIB.onig_error_code_to_str(buf, ctypes.c_int(code), ctypes.byref(info))
    return buf.raw[:n].decode("utf-8", "replace")


def answer(case):
    pattern = case["pattern"].encode("utf-8")
    flags = case.get("flags") or ""
    options = 0
    if "i" in flags:
        options |= ONIG_OPTION_IGNORECASE
    if "m" in flags:
        options |= ONIG_OPTION_MULTILINE
    if "x" in flags:
        options |= ONIG_OPTION_EXTEND
    reg = ctypes.c_void_p()
    info = ErrorInfo()
    pat = ctypes.create_string_buffer(pattern, len(pattern))
    code = LIB.onig_new(
        ctypes.byref(reg), ctypes.cast(pat, ctypes.c_char_p),
        ctypes.cast(ctypes.addressof(pat) + len(pattern), ctypes.c_char_p),
        options, UTF8_PTR, SYNTAX, ctypes.byref(info),
    )
    if code != 0:
        return {"error": error_text(code, info)}
    try:
        count = LIB.onig_number_of_captures(reg)
        names = [""] + [None] * count

        def on_name(name, name_end, n, numbers, _reg, _arg):
            text = ctypes.string_at(name, name_end - name).decode("utf-8")
            for k in range(n):
                names[numbers[k]] = text
            return 0

        LIB.onig_foreach_name(reg, NAME_CALLBACK(on_name), None)
        data = case["text"].encode("utf-8")
        buf = ctypes.create_string_buffer(data, len(data))
        base = ctypes.addressof(buf)
        end = base + len(data)
        region = LIB.onig_region_new()
        matches = []
        start = 0
        try:
            while start <= len(data):
                r = LIB.onig_search(reg, base, end, base + start, end, region, 0)
                if r == ONIG_MISMATCH:
                    break
                if r < 0:
                    return {"error": "search: " + error_text(r, ErrorInfo())}
                reg_ = region.contents
                spans = []
                for g in range(reg_.num_regs):
                    b, e = reg_.beg[g], reg_.end[g]
                    spans.append(None if b < 0 else [b, e])
                matches.append(spans)
                b, e = spans[0]
                if e == b:
                    if e >= len(data):
                        break
                    step = 1
                    while e + step < len(data) and (data[e + step] & 0xC0) == 0x80:
                        step += 1
                    start = e + step
                else:
                    start = e
        finally:
            LIB.onig_region_free(region, 1)
        return {"names": names, "matches": matches, "version": VERSION}
    finally:
        LIB.onig_free(reg)


if __name__ == "__main__":
    answer_lines(answer)
