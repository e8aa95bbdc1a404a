#!/usr/bin/env node
// CPython compiled to WebAssembly (Pyodide, the npm package `pyodide`), run as the `python`
// command is: `python.js -c CODE [ARG…]` or `python.js FILE [ARG…]`, with standard input,
// output and error, `sys.argv` and the exit status of `SystemExit`. The tests use it as the
// interpreter of the CPython releases that ship as Pyodide (python@3.14, python@3.15): the
// real `re` and `unicodedata` of that release, under node.
//
// The package is looked up in RXW_PYODIDE_DIR (a folder holding node_modules/pyodide), else
// beside this file. The working directory and the script's folder are mounted at their own
// paths, so a script reads the files it names as the native interpreter would.
"use strict";
const fs = require("fs");
const path = require("path");

async function main() {
  const home = process.env.RXW_PYODIDE_DIR || __dirname;
  const pkg = path.join(home, "node_modules", "pyodide");
  const { loadPyodide } = require(path.join(pkg, "pyodide.js"));
  const args = process.argv.slice(2);
  let source, file, argv;
  if (args[0] === "-c") {
    source = args[1] ?? "";
    file = "<string>";
    argv = ["-c", ...args.slice(2)];
  } else if (args[0] === "-V" || args[0] === "--version") {
    source = "import sys; print('Python ' + sys.version.split()[0])";
    file = "<string>";
    argv = [""];
  } else if (args.length > 0) {
    file = path.resolve(args[0]);
    source = fs.readFileSync(file, "utf8");
    argv = [file, ...args.slice(1)];
  } else {
    process.stderr.write("python.js: give -c CODE or a script\n");
    return 2;
  }
  // Standard input to its end (a pipe may be non-blocking: EAGAIN is waited out).
  const parts = [];
  if (!process.stdin.isTTY) {
    const buf = Buffer.alloc(1 << 16);
    for (;;) {
      let n;
      try {
        n = fs.readSync(0, buf, 0, buf.length, null);
      } catch (e) {
        if (e.code === "EAGAIN") {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
          continue;
        }
        if (e.code === "EOF") break;
        throw e;
      }
      if (n === 0) break;
      parts.push(Buffer.from(buf.subarray(0, n)));
    }
  }
  const stdin = Buffer.concat(parts);
  const py = await loadPyodide({ indexURL: pkg + path.sep });
  // Synchronous writes; a pipe node made non-blocking answers EAGAIN when full: wait, retry.
  const raw = (fd) => ({
    write: (buf) => {
      let done = 0;
      while (done < buf.length) {
        try {
          done += fs.writeSync(fd, buf, done, buf.length - done);
        } catch (e) {
          if (e.code !== "EAGAIN") throw e;
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        }
      }
      return buf.length;
    },
  });
  py.setStdout(raw(1));
  py.setStderr(raw(2));
  const mounts = new Set([process.cwd()]);
  if (file !== "<string>") mounts.add(path.dirname(file));
  for (const dir of mounts) {
    if (dir === "/") continue;
    py.FS.mkdirTree(dir);
    py.mountNodeFS(dir, dir);
  }
  py.FS.chdir(process.cwd());
  py.globals.set("_rxw_source", source);
  py.globals.set("_rxw_file", file);
  py.globals.set("_rxw_argv", py.toPy(argv));
  py.globals.set("_rxw_stdin", py.toPy(new Uint8Array(stdin)));
  const status = py.runPython(`
import io as _io, sys as _sys
_sys.argv = list(_rxw_argv)
_sys.stdin = _io.TextIOWrapper(_io.BytesIO(bytes(_rxw_stdin)), encoding="utf-8")
def _rxw_run():
    try:
        exec(compile(_rxw_source, _rxw_file, "exec"), {"__name__": "__main__", "__file__": _rxw_file})
        return 0
    except SystemExit as e:
        if e.code is None:
            return 0
        if isinstance(e.code, int):
            return e.code
        print(e.code, file=_sys.stderr)
        return 1
    except BaseException:
        import traceback
        traceback.print_exc()
        return 1
    finally:
        _sys.stdout.flush()
        _sys.stderr.flush()
_rxw_run()
`);
  return status;
}

main().then(
  (status) => process.exit(status),
  (e) => {
    process.stderr.write(`python.js: ${e && e.stack ? e.stack : e}\n`);
    process.exit(1);
  },
);
