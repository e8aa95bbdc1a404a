"""Times one ReDoS attack on a real C engine: PCRE2 (libpcre2-8) or Oniguruma (libonig).

Reads one JSON object on standard input: {"engine": "pcre2" | "oniguruma", "pattern",
"prefix", "pump", "suffix"}, compiles the pattern as the engine's oracle does
(tests/oracle/pcre2_oracle.py: PCRE2_UTF; tests/oracle/onig_oracle.py: UTF-8 with Oniguruma's
own syntax) and runs one search of prefix + pump * n + suffix for n = 8, 10, 12, … until one
search takes longer than 0.3 s (or n passes 60). The engines' own work limits are lifted for
these searches (PCRE2's match and depth limits, Oniguruma's retry limit), so that the time,
not a limit, ends the series. Prints [[n, seconds, outcome], …] as JSON, outcome being
"match", "no match" or the engine's error text.

Run by the slow tier of crates/rxw-engine/tests/pcre2_flavor.rs and onig_flavors.rs with the
python3 their oracles use; only the standard library.
"""
import ctypes
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
STOP_AFTER = 0.3
MAX_N = 60


def pcre2_search():
    import pcre2_oracle as o
    lib = o._lib
    lib.pcre2_match_context_create_8.restype = o.P
    lib.pcre2_match_context_create_8.argtypes = [o.P]
    lib.pcre2_set_match_limit_8.argtypes = [o.P, ctypes.c_uint32]
    lib.pcre2_set_depth_limit_8.argtypes = [o.P, ctypes.c_uint32]
    context = lib.pcre2_match_context_create_8(None)
    lib.pcre2_set_match_limit_8(context, 0xFFFFFFFF)
    lib.pcre2_set_depth_limit_8(context, 0xFFFFFFFF)

    def compile_and_search(pattern):
        pat = pattern.encode("utf-8")
        err, offset = ctypes.c_int(), o.SIZE()
        code = lib.pcre2_compile_8(pat, len(pat), o.UTF, ctypes.byref(err), ctypes.byref(offset), None)
        if not code:
            raise SystemExit("pcre2 refuses the pattern: " + o._message(err.value))
        md = lib.pcre2_match_data_create_from_pattern_8(code, None)

        def search(text):
            data = text.encode("utf-8")
            rc = lib.pcre2_match_8(code, data, len(data), 0, 0, md, context)
            if rc == o.NOMATCH:
                return "no match"
            return "match" if rc >= 0 else o._message(rc)

        return search

    return compile_and_search


def onig_search():
    import onig_oracle as o
    lib = o.LIB
    lib.onig_set_retry_limit_in_match.argtypes = [ctypes.c_ulong]
    lib.onig_set_retry_limit_in_match(1 << 40)  # (0 would allow no retry at all)

    def compile_and_search(pattern):
        pat = pattern.encode("utf-8")
        reg, info = ctypes.c_void_p(), o.ErrorInfo()
        buf = ctypes.create_string_buffer(pat, len(pat))
        code = lib.onig_new(
            ctypes.byref(reg), ctypes.cast(buf, ctypes.c_char_p),
            ctypes.cast(ctypes.addressof(buf) + len(pat), ctypes.c_char_p),
            0, o.UTF8_PTR, o.SYNTAX, ctypes.byref(info),
        )
        if code != 0:
            raise SystemExit("oniguruma refuses the pattern: " + o.error_text(code, info))
        region = lib.onig_region_new()

        def search(text):
            data = text.encode("utf-8")
            b = ctypes.create_string_buffer(data, len(data))
            base = ctypes.addressof(b)
            end = base + len(data)
            r = lib.onig_search(reg, base, end, base, end, region, 0)
            if r == o.ONIG_MISMATCH:
                return "no match"
            return "match" if r >= 0 else o.error_text(r, o.ErrorInfo())

        return search

    return compile_and_search


def main():
    job = json.loads(sys.stdin.read())
    engines = {"pcre2": pcre2_search, "oniguruma": onig_search}
    search = engines[job["engine"]]()(job["pattern"])
    times = []
    n = 8
    while True:
        text = job["prefix"] + job["pump"] * n + job["suffix"]
        t0 = time.perf_counter()
        outcome = search(text)
        t = time.perf_counter() - t0
        times.append([n, t, outcome])
        if t > STOP_AFTER or n >= MAX_N or outcome not in ("match", "no match"):
            break
        n += 2
    print(json.dumps(times))


if __name__ == "__main__":
    main()
