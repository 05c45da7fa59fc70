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
import { join } from "node:path";

import { fail, install, readCommandLine, root, runAndExit } from "./python_harness.mjs";

const NAME = "micropython.mjs";
const LOADER = join(root, "node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs");
const command = readCommandLine(NAME);

// --- MicroPython, its output line-buffered to ours ---
let loadMicroPython;
try {
  ({ loadMicroPython } = await import(LOADER));
} catch (error) {
  fail(NAME, `cannot load MicroPython from ${LOADER} (run \`npm ci\`): ${error.message}`);
}
const mp = await loadMicroPython({
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
const call = install(mp.FS, "/lib/shufflelab", command);

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
${call}
`;
runAndExit(NAME, mp, runner);

// The line buffers hold whatever the script printed after its last newline.
for (const [buffer, stream] of [["_stdoutBuffer", process.stdout], ["_stderrBuffer", process.stderr]]) {
  const rest = mp._module[buffer];
  if (rest?.length) stream.write(Buffer.from(rest));
}
