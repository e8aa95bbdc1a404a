"""Drives `rxw mcp` with the official MCP Python SDK: initialize, list tools, call each tool on
good and bad input (every edge-case row of the dsh regex tool's table), and a ReDoS pattern on
64,000 bytes. Exits non-zero with a message on the first failed check.

    python3 tests/mcp_client.py path/to/rxw FIXTURE_DIR
"""
import asyncio
import json
import os
import sys
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

RXW, FIXTURES = sys.argv[1], sys.argv[2]
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        print(f"FAILED: {what}", file=sys.stderr)
        sys.exit(1)


def payload(result):
    """The JSON a tool returned (structured content, else the text block)."""
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(result.content[0].text)


def error_text(result):
    check(result.is_error, f"expected a tool error, got {result}")
    return result.content[0].text


async def main():
    params = StdioServerParameters(command=RXW, args=["mcp", "--root", FIXTURES], env={**os.environ, "XDG_CONFIG_HOME": FIXTURES})
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            check(init.server_info.name == "rxw", f"server name {init.server_info.name}")
            tools = {t.name: t for t in (await session.list_tools()).tools}
            check(set(tools) == {"regex", "regex_parse", "grep_audit", "regex_redos", "registry_export"}, f"tools {sorted(tools)}")
            for t in tools.values():
                check(t.input_schema.get("type") == "object", f"{t.name} input schema")
                check(t.output_schema is not None, f"{t.name} output schema")

            async def regex(**args):
                return await session.call_tool("regex", args)

            # The seed's examples.
            r = payload(await regex(action="find", pattern=r"(\w+)@(\w+)", input="a@b x c@d"))
            check(r == {"matches": [
                {"index": 0, "match": "a@b", "captures": ["a", "b"], "groups": None},
                {"index": 6, "match": "c@d", "captures": ["c", "d"], "groups": None}]}, f"find {r}")
            r = payload(await regex(action="replace", pattern=r"(\w+) (\w+)", input="hello world", replacement="$2 $1"))
            check(r == {"result": "world hello", "replaced": 1}, f"replace {r}")
            r = payload(await regex(action="test", pattern=r"\d+", input="abc123"))
            check(r == {"matched": True}, f"test {r}")
            r = payload(await regex(action="explain", pattern=r"\d{4}-\d{2}"))
            kinds = [n["kind"] for n in r["nodes"]]
            check(any("\\d" == n["text"] for n in r["nodes"]), f"explain nodes {r}")
            check(len(kinds) >= 4, f"explain kinds {kinds}")

            # Edge cases of the dsh table.
            t = error_text(await regex(action="test", pattern="(a", input="a"))
            check(t.startswith("regex: invalid pattern: "), t)
            check(error_text(await regex(action="test", pattern="a", input="a", flags="q")) == 'regex: invalid flag "q"', "flag q")
            check(error_text(await regex(action="test", pattern="a", input="a", flags="gg")) == 'regex: duplicate flag "g"', "flag gg")
            r = payload(await regex(action="find", pattern="", input="\U0001F600", flags="u"))
            check([m["index"] for m in r["matches"]] == [0, 2], f"empty pattern under u {r}")
            r = payload(await regex(action="find", pattern=r"(?<y>\d)(\d)?", input="1 23"))
            check(r["matches"][0] == {"index": 0, "match": "1", "captures": ["1", None], "groups": {"y": "1"}}, f"groups {r}")
            r = payload(await regex(action="replace", pattern=r"(?<y>\d)", input="1", replacement="[$<y>|$1|$$|$0|$<foo>]"))
            check(r["result"] == "[1|1|$|$0|]", f"named replace {r}")
            check(payload(await regex(action="find", pattern="z", input="abc")) == {"matches": []}, "zero matches")
            check(payload(await regex(action="replace", pattern="z", input="abc", replacement="y")) == {"result": "abc", "replaced": 0}, "zero replace")
            t = error_text(await regex(action="test", pattern="a", input="a" * 64_001))
            check("64000" in t, t)
            t = error_text(await regex(action="test", pattern="a" * (16 * 1024 + 1), input="a"))
            check("16384" in t, t)
            t = error_text(await regex(action="replace", pattern="a", input="a", replacement="b" * (16 * 1024 + 1)))
            check("16384" in t, t)
            t = error_text(await regex(action="replace", pattern="a", input="a" * 1000, replacement="$`$`$`"))
            check(t == "regex: result/output exceeds 1000000 bytes", t)
            r = payload(await regex(action="find", pattern="a", input="a" * 3000))
            check(len(r["matches"]) == 50, "default limit 50")
            r = payload(await regex(action="find", pattern="a", input="a" * 3000, limit=5000))
            check(len(r["matches"]) == 1000, "limit capped at 1000")
            t = error_text(await regex(action="explain", pattern="(a)" * 3000))
            check(t == "regex: explain: pattern too complex", t)
            r = payload(await regex(action="find", pattern="b", input="\U0001F600b"))
            check(r["matches"][0]["index"] == 2, f"js index in UTF-16 units {r}")

            # ReDoS: a pathological pattern on 64,000 bytes times out within 1.1 s, and the
            # server keeps serving other calls meanwhile.
            started = time.monotonic()
            slow = asyncio.create_task(regex(action="find", pattern=r"(a|aa)+\1b", input="a" * 64_000))
            quick = payload(await regex(action="test", pattern="x", input="x"))
            quick_done = time.monotonic() - started
            t = error_text(await slow)
            elapsed = time.monotonic() - started
            check(quick == {"matched": True} and quick_done < 1.0, f"other calls served meanwhile ({quick_done:.2f}s)")
            check(t.startswith("regex: execution timed out"), t)
            check(elapsed < 1.1, f"timed out after {elapsed:.2f}s")
            # What stopped it is said, and the text claims no time that did not pass.
            stopped = await slow
            detail = (stopped.structured_content or {}).get("detail", {})
            check(detail.get("stopped_by") in ("step_budget", "wall_time"), f"stop detail {stopped}")
            if detail["stopped_by"] == "step_budget":
                check("(1000ms)" not in t and f"after {detail['elapsed_ms']}ms" in t, t)
            else:
                check(t == "regex: execution timed out (1000ms)", t)

            # limit: -1 is an error, not an empty success.
            t = error_text(await regex(action="find", pattern="a", input="aaa", limit=-1))
            check(t.startswith("regex: limit must be a positive integer"), t)

            # regex_parse: the registry mapping.
            r = payload(await session.call_tool("regex_parse", {"text": "[ACK:7fce46e0] [from 646] then [CLAIM 7fce46e0]"}))
            keys = [h["key"] for h in r["hits"]]
            check("ack" in keys and "verb" in keys, f"parse keys {keys}")
            verb = next(h for h in r["hits"] if h["key"] == "verb")
            check(verb["groups"]["verb"] == "CLAIM" and verb["groups"]["job_id"] == "7fce46e0", f"verb groups {verb}")
            t = error_text(await session.call_tool("regex_parse", {"text": "x", "only": ["nope"]}))
            check("nope" in t, t)

            # regex_redos: the verdict with its proof, as `rxw redos --json` prints it.
            r = payload(await session.call_tool("regex_redos", {"pattern": "^(a+)+$", "flavor": "python"}))
            check(r["verdict"] == "exponential" and r["attack"]["pump"] == "a", f"redos {r}")
            check(len(r["steps"]) >= 3 and r["span"] == {"start": 1, "end": 6}, f"redos steps {r}")
            t = error_text(await session.call_tool("regex_redos", {"pattern": "(a"}))
            check(t.startswith("regex_redos: "), t)

            # grep_audit: the seed's signature; unreadable paths give null, never a failure.
            a = os.path.join(FIXTURES, "a.md")
            b = os.path.join(FIXTURES, "b.md")
            missing = os.path.join(FIXTURES, "missing.md")
            r = payload(await session.call_tool("grep_audit", {
                "paths": [a, b, missing],
                "patterns": ["ACK:", {"pattern": r"\[WO:[0-9a-f]+\]", "name": "wo", "regex": True}],
                "output": "json",
            }))
            matrix = json.loads(r["text"])
            rows = {row["path"]: row["matches"] for row in matrix["rows"]}
            check(rows[a] == {"ACK:": True, "wo": True}, f"row a {rows[a]}")
            check(rows[b] == {"ACK:": False, "wo": False}, f"row b {rows[b]}")
            check(rows[missing] == {"ACK:": None, "wo": None}, f"missing row {rows[missing]}")
            # files_scanned is len(paths), the missing one included (the seed's usage).
            check(r["usage"] == {"files_scanned": 3, "patterns_evaluated": 2, "matches_total": 2}, f"usage {r['usage']}")
            r = payload(await session.call_tool("grep_audit", {"paths": [a, missing], "patterns": ["ack:"], "case_sensitive": False}))
            check("| Path | ack: |" in r["text"] and "✅" in r["text"] and "⚠️" in r["text"], r["text"])
            # No patterns: a clear error, not a broken table.
            t = error_text(await session.call_tool("grep_audit", {"paths": [a], "patterns": []}))
            check(t.startswith("grep_audit: no patterns"), t)

    print(f"mcp: {checks} checks passed")


asyncio.run(main())
