#!/usr/bin/env node
// Run a Python script under Pyodide in Node: the same CPython-in-WebAssembly build the lab's
// worker runs (pyodide, from `npm ci`), so what the lab computes is tested on its own Python,
// not only on the CPython of the tests (tests/portable/check_mt_stream.py: tally stream v1).
//
//   node scripts/pyodide.mjs [--mount DIR=TARGET ...] SCRIPT.py [args...]
//   node scripts/pyodide.mjs --mount tests/golden=/golden tests/portable/check_mt_stream.py /golden
//
// py/shufflelab/**/*.py is copied into Pyodide's in-memory FS at /lib/py/shufflelab, and
// /lib/py goes first on sys.path; each --mount copies every file under host DIR to TARGET.
// SCRIPT.py runs as __main__ (with __file__ = /main/<name>) and sys.argv = [SCRIPT.py, args...].
// Exit status: 0 on success, n for sys.exit(n), 1 for an uncaught exception (its traceback on
// stderr). loadPyodide alone takes about 1 s here (3 s with npm's own, source-only stdlib).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { fail, install, readCommandLine, root, runAndExit } from "./python_harness.mjs";

const NAME = "pyodide.mjs";
const INDEX = join(root, "node_modules/pyodide/");
const command = readCommandLine(NAME);

// --- Pyodide, its output line by line to ours ---
let loadPyodide;
try {
  ({ loadPyodide } = await import(pathToFileURL(join(INDEX, "pyodide.mjs")).href));
} catch (error) {
  fail(NAME, `cannot load Pyodide from ${INDEX} (run \`npm ci\`): ${error.message}`);
}
// the standard library the site serves (scripts/vendor.mjs precompiles part of it), not npm's copy
const STDLIB = join(root, "static/vendor/pyodide/python_stdlib.zip");
if (!existsSync(STDLIB)) fail(NAME, `${STDLIB} is missing: run \`make setup-web\` (node scripts/vendor.mjs)`);
const pyodide = await loadPyodide({
  indexURL: INDEX,
  stdLibURL: STDLIB,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
const call = install(pyodide.FS, "/lib/py/shufflelab", command);

const runner = `
import sys, traceback
sys.path.insert(0, "/lib/py")
def _harness_run(path, args):
    sys.argv[:] = args
    scope = {"__name__": "__main__", "__file__": path}
    try:
        with open(path, encoding="utf-8") as f:
            code = compile(f.read(), path, "exec")
        exec(code, scope)
        return 0
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            return e.code or 0
        print(e.code, file=sys.stderr)
        return 1
    except BaseException:
        traceback.print_exc()
        return 1
${call}
`;
runAndExit(NAME, pyodide, runner);
