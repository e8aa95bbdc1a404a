# Runs exported preset definitions on a real engine and prints every hit as JSON.
#
# Input (JSON on standard input): {"target": "clickhouse" | "duckdb" | "spark" | "loki" |
# "elasticsearch",
# "rows": [text, ...], "statements": [[key or null, sql], ...], "views": [{"key", "from",
# "columns": [[name, quoted], ...]}], "patterns": [{"key", "pattern", "fields": [name, ...]}]}. Row i is line_no i + 1 of source "rxw-verify".
# "split" (SQL targets): rows before it are source rxw-verify-a, the rest rxw-verify-b.
# Output: {"hits": {key: [[line_no, {column: value or null}], ...]}} (the whole hit is
# "match_text", also where the target only shows the groups) with "rejected": {key: why} for
# the definitions the engine refused, or {"unavailable": why} when the engine's package is
# not installed, or {"error": why} when the tables themselves fail.
import json
import os
import sys
import tempfile


def source(req, i):
    """The source of row i: the rows before "split" are one log, the rest another."""
    return "rxw-verify-a" if i < req.get("split", 0) else "rxw-verify-b"


def clickhouse(req):
    try:
        import chdb
        from chdb import session
    except ImportError as e:
        return {"unavailable": "the Python package chdb is not installed (%s)" % e}
    with tempfile.TemporaryDirectory() as tmp:
        sess = session.Session(os.path.join(tmp, "db"))
        rejected = {}
        try:
            for key, st in req["statements"]:
                try:
                    sess.query(st)
                except Exception as e:
                    if key is None:
                        raise
                    rejected[key] = "%s: %s" % (type(e).__name__, e)
            path = os.path.join(tmp, "rows.jsonl")
            with open(path, "w", encoding="utf-8") as f:
                for i, text in enumerate(req["rows"]):
                    f.write(json.dumps({"source": source(req, i), "line_no": i + 1, "line": text}) + "\n")
            sess.query(
                "INSERT INTO logs SELECT source, line_no, line FROM file('%s', 'JSONEachRow', "
                "'source String, line_no UInt64, line String')" % path.replace("'", "\\'")
            )
            hits = {}
            for v in req["views"]:
                if v["key"] in rejected:
                    continue
                cols = ", ".join(q for _, q in v["columns"])
                try:
                    res = sess.query("SELECT line_no, %s FROM %s FORMAT JSONEachRow" % (cols, v["from"]))
                except Exception as e:
                    rejected[v["key"]] = "%s: %s" % (type(e).__name__, e)
                    continue
                out = []
                # Only "\n" ends a record: splitlines() would also cut at U+0085, U+2028 and
                # the other separators a value can hold.
                for line in res.bytes().decode("utf-8").split("\n"):
                    if line.strip():
                        rec = json.loads(line)
                        out.append([int(rec["line_no"]), {n: rec[n] for n, _ in v["columns"]}])
                hits[v["key"]] = out
            return {"hits": hits, "rejected": rejected, "engine": "chDB %s (ClickHouse)" % getattr(chdb, "__version__", "?")}
        finally:
            sess.close()


def duckdb_(req):
    try:
        import duckdb
    except ImportError as e:
        return {"unavailable": "the Python package duckdb is not installed (%s)" % e}
    con = duckdb.connect()
    rejected = {}
    for key, st in req["statements"]:
        try:
            con.execute(st)
        except Exception as e:
            if key is None:
                raise
            rejected[key] = "%s: %s" % (type(e).__name__, e)
    con.executemany(
        "INSERT INTO logs VALUES (?, ?, ?)",
        [(source(req, i), i + 1, text) for i, text in enumerate(req["rows"])],
    )
    hits = {}
    for v in req["views"]:
        if v["key"] in rejected:
            continue
        cols = ", ".join(q for _, q in v["columns"])
        try:
            rows = con.execute("SELECT line_no, %s FROM %s" % (cols, v["from"])).fetchall()
        except Exception as e:
            rejected[v["key"]] = "%s: %s" % (type(e).__name__, e)
            continue
        hits[v["key"]] = [
            [int(r[0]), {n: r[k + 1] for k, (n, _) in enumerate(v["columns"])}] for r in rows
        ]
    return {"hits": hits, "rejected": rejected, "engine": "DuckDB %s" % duckdb.__version__}


def spark(req):
    """Spark SQL on a local session of the real Spark (the Python package pyspark and a JVM):
    the exported script's statements, then each view. Each row is one line of source
    rxw-verify (Spark's views search each row alone)."""
    try:
        from pyspark.sql import SparkSession
    except ImportError as e:
        return {"unavailable": "the Python package pyspark is not installed (%s)" % e}
    with tempfile.TemporaryDirectory() as tmp:
        spark = (
            SparkSession.builder.master("local[1]")
            .appName("rxw-verify")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", "1")
            .config("spark.sql.warehouse.dir", os.path.join(tmp, "warehouse"))
            .config("spark.driver.extraJavaOptions", "-Dderby.system.home=" + tmp)
            .getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")
        try:
            rejected = {}
            for key, st in req["statements"]:
                try:
                    spark.sql(st)
                except Exception as e:
                    if key is None:
                        raise
                    rejected[key] = "%s: %s" % (type(e).__name__, e)
            rows = spark.createDataFrame(
                [("rxw-verify", i + 1, text) for i, text in enumerate(req["rows"])],
                "source string, line_no bigint, line string",
            )
            rows.write.insertInto("logs")
            hits = {}
            for v in req["views"]:
                if v["key"] in rejected:
                    continue
                cols = ", ".join(q for _, q in v["columns"])
                try:
                    res = spark.sql("SELECT line_no, %s FROM %s" % (cols, v["from"])).collect()
                except Exception as e:
                    rejected[v["key"]] = "%s: %s" % (type(e).__name__, e)
                    continue
                hits[v["key"]] = [
                    [int(r[0]), {n: r[k + 1] for k, (n, _) in enumerate(v["columns"])}] for r in res
                ]
            return {"hits": hits, "rejected": rejected, "engine": "Spark SQL %s (pyspark, local session)" % spark.version}
        finally:
            spark.stop()


def loki(req):
    try:
        import re2
    except ImportError as e:
        return {"unavailable": "the Python package google-re2 is not installed (%s)" % e}
    hits = {}
    rejected = {}
    for p in req["patterns"]:
        opts = re2.Options()
        opts.log_errors = False
        try:
            rx = re2.compile(p["pattern"], opts)
        except Exception as e:
            rejected[p["key"]] = "%s: %s" % (type(e).__name__, e)
            continue
        out = []
        for i, text in enumerate(req["rows"]):
            m = rx.search(text)
            if m is not None:
                # LogQL's regexp stage: one label per named group that captured something;
                # the whole hit too, to check it (Loki shows it only as the line).
                labels = {k: v for k, v in m.groupdict().items() if v and k != "match_text"}
                labels["match_text"] = m.group(0)
                out.append([i + 1, labels])
        hits[p["key"]] = out
    return {"hits": hits, "rejected": rejected, "engine": "google-re2"}


def elasticsearch(req):
    try:
        import onigurumacffi
    except ImportError as e:
        return {"unavailable": "the Python package onigurumacffi is not installed (%s)" % e}
    hits = {}
    rejected = {}
    for p in req["patterns"]:
        try:
            rx = onigurumacffi.compile(p["pattern"])
        except Exception as e:
            rejected[p["key"]] = "%s: %s" % (type(e).__name__, e)
            continue
        out = []
        for i, text in enumerate(req["rows"]):
            m = rx.search(text)
            if m is not None:
                # grok's fields: the named groups of the first hit. With names in the
                # pattern Oniguruma captures only named groups, numbered in order; a group
                # that did not take part has a negative start.
                fields = {"match_text": m.group(0)}
                for k, name in enumerate(p["fields"]):
                    fields[name] = None if m._begs[k + 1] < 0 else m.group(k + 1)
                out.append([i + 1, fields])
        hits[p["key"]] = out
    return {"hits": hits, "rejected": rejected, "engine": "onigurumacffi"}


def main():
    req = json.load(sys.stdin)
    run = {
        "clickhouse": clickhouse,
        "duckdb": duckdb_,
        "spark": spark,
        "loki": loki,
        "elasticsearch": elasticsearch,
    }[req["target"]]
    try:
        res = run(req)
    except Exception as e:  # the engine's own error, reported to rxw as data
        res = {"error": "%s: %s" % (type(e).__name__, e)}
    json.dump(res, sys.stdout)


main()
