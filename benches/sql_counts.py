#!/usr/bin/env python3
"""Counts of the registry's SQL in DuckDB and chDB (the pip packages `duckdb` and `chdb`): the
functions benches/fleet_sql.py times, and a command line that prints the same counts for a
test to compare with `rxw parse --count`:

    python3 benches/sql_counts.py views TARGET SCRIPT LOG KEY,KEY...
    python3 benches/sql_counts.py loaded TARGET LOAD

`views`: runs `rxw registry export --to TARGET`'s SCRIPT (duckdb or clickhouse), loads the
raw lines of LOG the way the script's comments say, and counts each preset view's rows.
`loaded`: loads hits.jsonl (in the working directory) with LOAD, the statement `rxw parse
--schema` prints for TARGET, and counts the hits per key (a key without hits has no row).
Prints the counts as one JSON object, {key: count}.
"""
import json
import os
import sys
import tempfile
import time


def statements(script_path):
    script = open(script_path, encoding="utf-8").read()
    out = []
    for chunk in script.split(";\n\n"):
        body = "\n".join(l for l in chunk.splitlines() if not l.startswith("-- "))
        if body.strip():
            out.append(body)
    return out


def duckdb_counts(script, log, keys):
    import duckdb

    con = duckdb.connect()
    for st in statements(script):
        con.execute(st)
    t = time.perf_counter()
    con.execute(
        "INSERT INTO logs SELECT filename, generate_subscripts(l, 1), unnest(l) FROM "
        "(SELECT filename, string_split(content, chr(10)) AS l FROM read_text('%s'))" % log
    )
    load = time.perf_counter() - t
    t = time.perf_counter()
    counts = {k: con.execute('SELECT count(*) FROM "rxw_%s"' % k).fetchone()[0] for k in keys}
    return counts, load, time.perf_counter() - t


def chdb_counts(script, log, keys):
    from chdb import session

    with tempfile.TemporaryDirectory() as tmp:
        s = session.Session(os.path.join(tmp, "db"))
        for st in statements(script):
            s.query(st)
        t = time.perf_counter()
        rows = os.path.join(tmp, "rows.jsonl")
        with open(log, encoding="utf-8") as src, open(rows, "w", encoding="utf-8") as f:
            for i, line in enumerate(src.read().split("\n")):
                f.write(json.dumps({"source": "app.log", "line_no": i + 1, "line": line}) + "\n")
        s.query(
            "INSERT INTO logs SELECT * FROM file('%s', 'JSONEachRow', "
            "'source String, line_no UInt64, line String')" % rows
        )
        load = time.perf_counter() - t
        t = time.perf_counter()
        counts = {
            k: int(str(s.query("SELECT count() FROM `rxw_%s`" % k, "TSV")).strip()) for k in keys
        }
        took = time.perf_counter() - t
        s.close()
    return counts, load, took


def view_counts(target, script, log, keys):
    """Each preset view's rows of the exported `script` for `target` ("duckdb" or
    "clickhouse") on the lines of `log`: ({key: count}, load seconds, count seconds)."""
    run = duckdb_counts if target == "duckdb" else chdb_counts
    return run(script, log, keys)


def loaded_counts(target, load, workdir="."):
    """Loads hits.jsonl in `workdir` with `rxw parse --schema`'s statement `load` for `target`;
    ({key: count}, load seconds, count seconds)."""
    cwd = os.getcwd()
    os.chdir(workdir)
    try:
        t = time.perf_counter()
        counts = {}
        if target == "duckdb":
            import duckdb

            con = duckdb.connect()
            con.execute(load)
            took = time.perf_counter() - t
            t = time.perf_counter()
            for k, n in con.execute("SELECT key, count(*) FROM rxw_hits GROUP BY key").fetchall():
                counts[k] = n
        else:
            from chdb import session

            with tempfile.TemporaryDirectory() as tmp:
                s = session.Session(os.path.join(tmp, "db"))
                for st in load.split(";\n"):
                    if st.strip():
                        s.query(st.rstrip(";"))
                took = time.perf_counter() - t
                t = time.perf_counter()
                res = str(s.query("SELECT key, count() FROM rxw_hits GROUP BY key", "TSV"))
                for line in res.splitlines():
                    k, n = line.split("\t")
                    counts[k] = int(n)
                s.close()
        return counts, took, time.perf_counter() - t
    finally:
        os.chdir(cwd)


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "views":
        counts, _, _ = view_counts(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5].split(","))
    elif len(sys.argv) == 4 and sys.argv[1] == "loaded":
        counts, _, _ = loaded_counts(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
