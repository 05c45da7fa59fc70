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
// stderr). loadPyodide alone takes about 3.5 s here.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const INDEX = join(root, "node_modules/pyodide/");
const USAGE = "usage: node scripts/pyodide.mjs [--mount DIR=TARGET ...] SCRIPT.py [args...]";

function fail(message, status = 2) {
  process.stderr.write(`pyodide.mjs: ${message}\n`);
  process.exit(status);
}

// Copy host directory `from` into Pyodide's FS at `to`; `keep(name)` picks the files.
function copyTree(FS, from, to, keep) {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = `${to}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "__pycache__") copyTree(FS, source, target, keep);
    } else if (keep(entry.name)) {
      FS.mkdirTree(to);
      FS.writeFile(target, readFileSync(source));
    }
  }
}

// --- arguments: options up to the script, everything after it belongs to the script ---
const argv = process.argv.slice(2);
const mounts = [];
while (argv.length && argv[0].startsWith("--")) {
  const option = argv.shift();
  const value = option.startsWith("--mount=") ? option.slice(8) : option === "--mount" ? argv.shift() : fail(USAGE);
  const split = value?.indexOf("=") ?? -1;
  if (split < 1 || !value.slice(split + 1).startsWith("/")) fail(`--mount needs DIR=/TARGET, got ${value}\n${USAGE}`);
  const dir = resolve(value.slice(0, split));
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) fail(`--mount: no directory ${dir}`);
  mounts.push([dir, value.slice(split + 1).replace(/\/+$/, "")]);
}
if (!argv.length) fail(USAGE);
const [script, ...scriptArgs] = argv;
let source;
try {
  source = readFileSync(script, "utf8");
} catch (error) {
  fail(`cannot read ${script}: ${error.message}`);
}

// --- Pyodide, its output line by line to ours ---
let loadPyodide;
try {
  ({ loadPyodide } = await import(pathToFileURL(join(INDEX, "pyodide.mjs")).href));
} catch (error) {
  fail(`cannot load Pyodide from ${INDEX} (run \`npm ci\`): ${error.message}`);
}
const pyodide = await loadPyodide({
  indexURL: INDEX,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

copyTree(pyodide.FS, join(root, "py", "shufflelab"), "/lib/py/shufflelab", (name) => name.endsWith(".py"));
for (const [dir, target] of mounts) copyTree(pyodide.FS, dir, target, () => true);
const mainFile = `/main/${basename(script)}`;
pyodide.FS.mkdirTree("/main");
pyodide.FS.writeFile(mainFile, source);

// JSON string literals are Python string literals too.
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
_harness_status = _harness_run(${JSON.stringify(mainFile)}, ${JSON.stringify([script, ...scriptArgs])})
`;
let status;
try {
  pyodide.runPython(runner);
  status = pyodide.globals.get("_harness_status");
} catch (error) {
  // the runner catches everything the script raises; this is the harness itself failing
  process.stderr.write(`pyodide.mjs: ${error.message ?? error}\n`);
  status = 1;
}
process.exitCode = status === 0 ? 0 : (status & 255) || 1;
