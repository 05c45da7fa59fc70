#!/usr/bin/env node
// Run a Python script under MicroPython in Node: the same WebAssembly build the page runs
// (@micropython/micropython-webassembly-pyscript, from `npm ci`), so the portable core
// (cards, rng, algorithms, catalog, deal, link) is tested on MicroPython, not hoped.
//
//   node scripts/micropython.mjs [--mount DIR=TARGET ...] SCRIPT.py [args...]
//   node scripts/micropython.mjs --mount tests/golden=/golden tests/portable/check_core.py /golden
//
// py/shufflelab/**/*.py is copied into MicroPython's in-memory FS at /lib/shufflelab
// (/lib is on MicroPython's sys.path: ['', '.frozen', '/lib']); each --mount copies every
// file under host DIR to TARGET. SCRIPT.py runs as __main__ (a fresh globals dict, with
// __file__ = /main/<name>) and sys.argv = [SCRIPT.py, args...]. Exit status: 0 on success,
// n for sys.exit(n), 1 for an uncaught exception (MicroPython's traceback on stderr).
// The heap is loadMicroPython's default, as PyScript uses it in the browser.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const LOADER = join(root, "node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs");
const USAGE = "usage: node scripts/micropython.mjs [--mount DIR=TARGET ...] SCRIPT.py [args...]";

function fail(message, status = 2) {
  process.stderr.write(`micropython.mjs: ${message}\n`);
  process.exit(status);
}

// Copy host directory `from` into the MicroPython FS at `to`; `keep(name)` picks the files.
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

// --- MicroPython, its output line-buffered to ours ---
let loadMicroPython;
try {
  ({ loadMicroPython } = await import(LOADER));
} catch (error) {
  fail(`cannot load MicroPython from ${LOADER} (run \`npm ci\`): ${error.message}`);
}
const mp = await loadMicroPython({
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

copyTree(mp.FS, join(root, "py", "shufflelab"), "/lib/shufflelab", (name) => name.endsWith(".py"));
for (const [dir, target] of mounts) copyTree(mp.FS, dir, target, () => true);
const mainFile = `/main/${basename(script)}`;
mp.FS.mkdirTree("/main");
mp.FS.writeFile(mainFile, source);

// JSON string literals are Python string literals too.
const runner = `
import sys
def _harness_run(path, args):
    sys.argv.clear()
    sys.argv.extend(args)
    scope = {"__name__": "__main__", "__file__": path}
    try:
        with open(path) as f:
            code = compile(f.read(), path, "exec")
        exec(code, scope)
        return 0
    except SystemExit as e:  # MicroPython's SystemExit has no .code: the status is args[0]
        status = e.args[0] if e.args else None
        if status is None or isinstance(status, int):
            return status or 0
        print(status, file=sys.stderr)
        return 1
    except BaseException as e:
        sys.print_exception(e, sys.stderr)
        return 1
_harness_status = _harness_run(${JSON.stringify(mainFile)}, ${JSON.stringify([script, ...scriptArgs])})
`;
let status;
try {
  mp.runPython(runner);
  status = mp.globals.get("_harness_status");
} catch (error) {
  // the runner catches everything the script raises; this is the harness itself failing
  process.stderr.write(`micropython.mjs: ${error.message ?? error}\n`);
  status = 1;
}

// The line buffers hold whatever the script printed after its last newline.
for (const [buffer, stream] of [["_stdoutBuffer", process.stdout], ["_stderrBuffer", process.stderr]]) {
  const rest = mp._module[buffer];
  if (rest?.length) stream.write(Buffer.from(rest));
}
process.exitCode = status === 0 ? 0 : (status & 255) || 1;
