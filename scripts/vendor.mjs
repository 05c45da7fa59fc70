#!/usr/bin/env node
// Copy the browser runtime out of node_modules into static/vendor/ (git-ignored).
//
//   static/vendor/pyscript/  core.js, core.css and every chunk core.js can import, and
//                            editor.js: the CodeMirror parts the lab's editor uses, by stable names
//   static/vendor/micropython/  MicroPython for the page's main thread (loader + wasm)
//   static/vendor/pyodide/   the Pyodide runtime files for the lab's worker (stdlib only, no wheels)
//
// PyScript's chunks are found by following the relative imports of core.js, so a
// new @pyscript/core release with renamed chunks needs no edit here, and a chunk
// that goes missing fails the copy instead of a page load.  Source maps are left
// out: browsers only fetch them when DevTools are open.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const modules = join(root, "node_modules");
const vendor = join(root, "static", "vendor");

const PYODIDE_FILES = [
  "pyodide.mjs",         // the loader PyScript imports (the `interpreter` in pyscript.toml, the worker's config)
  "pyodide.asm.mjs",     // Emscripten glue (older releases name it pyodide.asm.js)
  "pyodide.asm.wasm",
  "python_stdlib.zip",
  "pyodide-lock.json",   // read at start-up even when no package is loaded
];

// PyScript's MicroPython engine loads the .wasm that sits beside the .mjs (same name).
const MICROPYTHON_FILES = ["micropython.mjs", "micropython.wasm"];

function fail(message) {
  console.error(`vendor: ${message}`);
  process.exit(1);
}

function packageDir(name) {
  const dir = join(modules, name);
  if (!existsSync(join(dir, "package.json"))) fail(`${name} is not installed; run \`npm ci\` first`);
  return dir;
}

function version(dir) {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;
}

// Relative module and stylesheet references in a minified ES module:
// `from"./x.js"`, `import("./x.js")`, `import"./x.js"` and "./x.css" strings.
const REFERENCE = /(?:\bfrom\s*|\bimport\s*\(?\s*)["'`](\.\/[\w.\-]+\.js)["'`]|["'`](\.\/[\w.\-]+\.css)["'`]/g;

function pyscriptFiles(dist) {
  const wanted = new Set(["core.js", "core.css"]);
  const queue = ["core.js"];
  while (queue.length) {
    const file = queue.pop();
    const text = readFileSync(join(dist, file), "utf8");
    for (const match of text.matchAll(REFERENCE)) {
      const name = (match[1] ?? match[2]).slice(2);
      if (wanted.has(name)) continue;
      if (!existsSync(join(dist, name))) fail(`${file} refers to ${name}, which @pyscript/core does not ship`);
      wanted.add(name);
      if (name.endsWith(".js")) queue.push(name);
    }
  }
  return [...wanted].sort();
}

function copy(files, from, to) {
  mkdirSync(to, { recursive: true });
  let bytes = 0;
  for (const file of files) {
    const source = join(from, file);
    if (!existsSync(source)) fail(`missing ${source}`);
    cpSync(source, join(to, file));
    bytes += statSync(source).size;
  }
  return bytes;
}

const pyscriptDir = packageDir("@pyscript/core");
const pyodideDir = packageDir("pyodide");
const micropythonDir = packageDir("@micropython/micropython-webassembly-pyscript");

rmSync(vendor, { recursive: true, force: true });
const chunks = pyscriptFiles(join(pyscriptDir, "dist"));
const pyscriptBytes = copy(chunks, join(pyscriptDir, "dist"), join(vendor, "pyscript"));
const pyodideBytes = copy(PYODIDE_FILES, pyodideDir, join(vendor, "pyodide"));
const micropythonBytes = copy(MICROPYTHON_FILES, micropythonDir, join(vendor, "micropython"));

// The lab's code editor is CodeMirror from PyScript's own chunks, whose names carry hashes:
// editor.js re-exports what the page uses under names that stay put across releases.
function editorEntry(files) {
  const exports = [
    [/^codemirror-[\w-]+\.js$/, ["EditorView", "basicSetup"]],
    [/^codemirror_lang-python-[\w-]+\.js$/, ["python"]],
  ];
  const lines = ["// Written by scripts/vendor.mjs: CodeMirror from PyScript's chunks, under stable names."];
  for (const [pattern, names] of exports) {
    const file = files.find((name) => pattern.test(name));
    if (!file) fail(`@pyscript/core ships no chunk like ${pattern}: the lab's editor needs it`);
    const text = readFileSync(join(vendor, "pyscript", file), "utf8");
    for (const name of names) {
      if (!new RegExp(`\\bas ${name}\\b`).test(text)) fail(`${file} does not export ${name}`);
    }
    lines.push(`export { ${names.join(", ")} } from "./${file}";`);
  }
  writeFileSync(join(vendor, "pyscript", "editor.js"), lines.join("\n") + "\n");
}
editorEntry(chunks);

// index.html preloads some vendored files by name (PyScript's hashed core chunk among
// them): a release that renames one must fail here, not slow the page down silently.
const preloaded = readFileSync(join(root, "index.html"), "utf8").matchAll(/href="\.\/(static\/vendor\/[^"]+)"/g);
for (const [, file] of preloaded) {
  if (!existsSync(join(root, file))) fail(`index.html preloads ${file}, which the vendored runtime does not have`);
}

// Pyodide's standard library is source only, and Python can't cache bytecode in a zip: every start
// of the lab's worker compiled what it imports anew. The vendored python_stdlib.zip has those
// modules precompiled by this same Pyodide (scripts/stdlib_bytecode.py says which and why).
async function precompileStdlib() {
  const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({ indexURL: pyodideDir + "/" });
  const scope = pyodide.toPy({ __name__: "stdlib_bytecode" });
  pyodide.runPython(readFileSync(join(root, "scripts", "stdlib_bytecode.py"), "utf8"), { globals: scope });
  const [count, before, after] = scope.get("precompile")("/python_stdlib.zip").toJs();
  writeFileSync(join(vendor, "pyodide", "python_stdlib.zip"), pyodide.FS.readFile("/python_stdlib.zip"));
  return { count, before, after };
}
const stdlib = await precompileStdlib().catch((error) => {
  const last = String(error.message).trim().split("\n").at(-1);  // a Python error's last line says what failed
  fail(`cannot precompile Pyodide's standard library: ${last}`);
});

const mib = (n) => (n / 2 ** 20).toFixed(1);
console.log(
  `vendor: @pyscript/core ${version(pyscriptDir)} (${chunks.length} files, ${mib(pyscriptBytes)} MiB)` +
    ` + micropython ${version(micropythonDir)} (${mib(micropythonBytes)} MiB)` +
    ` + pyodide ${version(pyodideDir)} (${PYODIDE_FILES.length} files, ${mib(pyodideBytes)} MiB)` +
    ` -> static/vendor/`,
);
console.log(`vendor: python_stdlib.zip: ${stdlib.count} modules the lab's start imports precompiled` +
            ` (${mib(stdlib.before)} -> ${mib(stdlib.after)} MiB)`);
