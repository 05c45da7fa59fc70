#!/usr/bin/env bash
# Assemble the deployable site into a folder (default _site/): exactly the files the
# page serves, nothing else (no tests, node_modules, .venv or tooling).
# Needs static/vendor/ first: `npm ci && node scripts/vendor.mjs` (or `make site`).
# Used by .github/workflows/pages.yml and by tests/e2e/test_site_build.py.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-_site}
case $out in /*) ;; *) out=$root/$out ;; esac

if [[ ! -f $root/static/vendor/pyscript/core.js || ! -f $root/static/vendor/pyodide/pyodide.mjs ]]; then
  echo "build_site: static/vendor/ is missing; run 'npm ci && node scripts/vendor.mjs' first" >&2
  exit 1
fi

rm -rf "$out"
mkdir -p "$out/py"
cp "$root/index.html" "$root/page.toml" "$root/pyscript.toml" "$root/sandbox.toml" "$root/sw.js" "$out/"
# py/: the Python sources only (no __pycache__).
(cd "$root" && find py -name '*.py' -not -path '*/__pycache__/*' -print0 | xargs -0 cp --parents -t "$out")
# static/: css, images and the vendored runtime, minus make's stamp files.
cp -R "$root/static" "$out/static"
find "$out/static" -name '.copied' -delete
# GitHub Pages: serve files as they are (no Jekyll processing of _-prefixed names).
touch "$out/.nojekyll"

echo "build_site: $(find "$out" -type f | wc -l) files, $(du -sh "$out" | cut -f1) in ${out#"$root"/}"
