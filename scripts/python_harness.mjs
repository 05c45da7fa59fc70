// What scripts/micropython.mjs and scripts/pyodide.mjs share: their command line, copying the
// package and the --mount directories into the interpreter's in-memory FS, and the exit status.
// Each runner keeps what differs: how its interpreter loads and how its Python reports an exit.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

// Print `name: message` on stderr and exit with `status`.
export function fail(name, message, status = 2) {
  process.stderr.write(`${name}: ${message}\n`);
  process.exit(status);
}

// Copy host directory `from` into the interpreter's FS at `to`; `keep(name)` picks the files.
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

// Read `[--mount DIR=/TARGET ...] SCRIPT.py [args...]`: options up to the script, everything after it is the
// script's. Returns {mounts, script, scriptArgs, source}; a bad command line exits with status 2.
export function readCommandLine(name) {
  const usage = `usage: node scripts/${name} [--mount DIR=TARGET ...] SCRIPT.py [args...]`;
  const argv = process.argv.slice(2);
  const mounts = [];
  while (argv.length && argv[0].startsWith("--")) {
    const option = argv.shift();
    const value = option.startsWith("--mount=") ? option.slice(8) : option === "--mount" ? argv.shift() : fail(name, usage);
    const split = value?.indexOf("=") ?? -1;
    if (split < 1 || !value.slice(split + 1).startsWith("/")) fail(name, `--mount needs DIR=/TARGET, got ${value}\n${usage}`);
    const dir = resolve(value.slice(0, split));
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) fail(name, `--mount: no directory ${dir}`);
    mounts.push([dir, value.slice(split + 1).replace(/\/+$/, "")]);
  }
  if (!argv.length) fail(name, usage);
  const [script, ...scriptArgs] = argv;
  let source;
  try {
    source = readFileSync(script, "utf8");
  } catch (error) {
    fail(name, `cannot read ${script}: ${error.message}`);
  }
  return { mounts, script, scriptArgs, source };
}

// Copy py/shufflelab/**/*.py to `packageDir`, each mount to its target, and the script to /main/<name>;
// return the Python call that runs it through the runner's _harness_run(path, argv).
export function install(FS, packageDir, { mounts, script, scriptArgs, source }) {
  copyTree(FS, join(root, "py", "shufflelab"), packageDir, (file) => file.endsWith(".py"));
  for (const [dir, target] of mounts) copyTree(FS, dir, target, () => true);
  const mainFile = `/main/${basename(script)}`;
  FS.mkdirTree("/main");
  FS.writeFile(mainFile, source);
  // JSON string literals are Python string literals too.
  return `_harness_status = _harness_run(${JSON.stringify(mainFile)}, ${JSON.stringify([script, ...scriptArgs])})`;
}

// Run the runner's Python and set the exit status from _harness_status (0, n for sys.exit(n), else 1).
export function runAndExit(name, interpreter, runner) {
  let status;
  try {
    interpreter.runPython(runner);
    status = interpreter.globals.get("_harness_status");
  } catch (error) {
    // the runner catches everything the script raises; this is the harness itself failing
    process.stderr.write(`${name}: ${error.message ?? error}\n`);
    status = 1;
  }
  process.exitCode = status === 0 ? 0 : (status & 255) || 1;
}
