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
import importlib
import json
import os
import sys
import tempfile


def source(req, i):
    """The source of row i: the rows before "split" are one log, the rest another."""
    return "rxw-verify-a" if i < req.get("split", 0) else "rxw-verify-b"


def needs(module, package):
    """Runs the engine function with `module` imported and passed after the request, or
    answers that the Python package `package` is not installed."""

    def wrap(run):
        def engine(req):
            try:
                mod = importlib.import_module(module)
            except ImportError as e:
                return {"unavailable": "the Python package %s is not installed (%s)" % (package, e)}
            return run(req, mod)

        return engine

    return wrap


def answer(hits, rejected, engine):
    """What the driver prints when the engine ran."""
    return {"hits": hits, "rejected": rejected, "engine": engine}


def why(e):
    """An engine's error as rxw shows it."""
    return "%s: %s" % (type(e).__name__, e)


def run_statements(req, execute):
    """Runs the exported script's statements with execute(sql): a definition the engine
    refuses is rejected ({key: why}, returned); a failure of the tables themselves (a
    statement of no key) is raised."""
    rejected = {}
    for key, st in req["statements"]:
        try:
            execute(st)
        except Exception as e:
            if key is None:
                raise
            rejected[key] = why(e)
    return rejected


def read_views(req, rejected, query, hits_of=None, tail=""):
    """Reads each view not rejected, its line_no and columns, with query(sql) (the SELECT
    ending in tail), whose result hits_of(view, result) makes the view's hits (row_hits by
    default); a view the engine refuses joins rejected."""
    hits = {}
    for v in req["views"]:
        if v["key"] in rejected:
            continue
        cols = ", ".join(q for _, q in v["columns"])
        try:
            res = query("SELECT line_no, %s FROM %s%s" % (cols, v["from"], tail))
        except Exception as e:
            rejected[v["key"]] = why(e)
            continue
        hits[v["key"]] = (hits_of or row_hits)(v, res)
    return hits


def row_hits(v, rows):
    """Hits of rows (line_no, column...) of the view v."""
    return [[int(r[0]), {n: r[k + 1] for k, (n, _) in enumerate(v["columns"])}] for r in rows]


def search_patterns(req, compile_pattern, fields_of):
    """Searches each row once with each pattern compile_pattern(pattern) makes (the first hit
    only); fields_of(pattern, match) gives a hit's fields. Returns (hits, rejected)."""
    hits = {}
    rejected = {}
    for p in req["patterns"]:
        try:
            rx = compile_pattern(p["pattern"])
        except Exception as e:
            rejected[p["key"]] = why(e)
            continue
        out = []
        for i, text in enumerate(req["rows"]):
            m = rx.search(text)
            if m is not None:
                out.append([i + 1, fields_of(p, m)])
        hits[p["key"]] = out
    return hits, rejected


@needs("chdb.session", "chdb")
def clickhouse(req, session):
    import chdb  # imported with chdb.session

    with tempfile.TemporaryDirectory() as tmp:
        sess = session.Session(os.path.join(tmp, "db"))
        try:
            rejected = run_statements(req, sess.query)
            path = os.path.join(tmp, "rows.jsonl")
            with open(path, "w", encoding="utf-8") as f:
                for i, text in enumerate(req["rows"]):
                    f.write(json.dumps({"source": source(req, i), "line_no": i + 1, "line": text}) + "\n")
            sess.query(
                "INSERT INTO logs SELECT source, line_no, line FROM file('%s', 'JSONEachRow', "
                "'source String, line_no UInt64, line String')" % path.replace("'", "\\'")
            )

            def hits_of(v, res):
                out = []
                # Only "\n" ends a record: splitlines() would also cut at U+0085, U+2028 and
                # the other separators a value can hold.
                for line in res.bytes().decode("utf-8").split("\n"):
                    if line.strip():
                        rec = json.loads(line)
                        out.append([int(rec["line_no"]), {n: rec[n] for n, _ in v["columns"]}])
                return out

            hits = read_views(req, rejected, sess.query, hits_of, " FORMAT JSONEachRow")
            return answer(hits, rejected, "chDB %s (ClickHouse)" % getattr(chdb, "__version__", "?"))
        finally:
            sess.close()


@needs("duckdb", "duckdb")
def duckdb_(req, duckdb):
    con = duckdb.connect()
    rejected = run_statements(req, con.execute)
    con.executemany(
        "INSERT INTO logs VALUES (?, ?, ?)",
        [(source(req, i), i + 1, text) for i, text in enumerate(req["rows"])],
    )
    hits = read_views(req, rejected, lambda sql: con.execute(sql).fetchall())
    return answer(hits, rejected, "DuckDB %s" % duckdb.__version__)


@needs("pyspark.sql", "pyspark")
def spark(req, pyspark_sql):
    """Spark SQL on a local session of the real Spark (the Python package pyspark and a JVM):
    the exported script's statements, then each view. Each row is one line of source
    rxw-verify (Spark's views search each row alone)."""
    SparkSession = pyspark_sql.SparkSession
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
            rejected = run_statements(req, spark.sql)
            rows = spark.createDataFrame(
                [("rxw-verify", i + 1, text) for i, text in enumerate(req["rows"])],
                "source string, line_no bigint, line string",
            )
            rows.write.insertInto("logs")
            hits = read_views(req, rejected, lambda sql: spark.sql(sql).collect())
            return answer(hits, rejected, "Spark SQL %s (pyspark, local session)" % spark.version)
        finally:
            spark.stop()


@needs("re2", "google-re2")
def loki(req, re2):

    def compile_quietly(pattern):
        opts = re2.Options()
        opts.log_errors = False
        return re2.compile(pattern, opts)

    def labels_of(p, m):
        # LogQL's regexp stage: one label per named group that captured something; the whole
        # hit too, to check it (Loki shows it only as the line).
        labels = {k: v for k, v in m.groupdict().items() if v and k != "match_text"}
        labels["match_text"] = m.group(0)
        return labels

    hits, rejected = search_patterns(req, compile_quietly, labels_of)
    return answer(hits, rejected, "google-re2")


@needs("onigurumacffi", "onigurumacffi")
def elasticsearch(req, onigurumacffi):

    def fields_of(p, m):
        # grok's fields: the named groups of the first hit. With names in the pattern
        # Oniguruma captures only named groups, numbered in order; a group that did not take
        # part has a negative start.
        fields = {"match_text": m.group(0)}
        for k, name in enumerate(p["fields"]):
            fields[name] = None if m._begs[k + 1] < 0 else m.group(k + 1)
        return fields

    hits, rejected = search_patterns(req, onigurumacffi.compile, fields_of)
    return answer(hits, rejected, "onigurumacffi")


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
        res = {"error": why(e)}
    json.dump(res, sys.stdout)


main()
