#!/usr/bin/env bash
# Assemble the deployable site into a folder (default _site/): exactly the files the
# page serves, nothing else (no tests, node_modules, .venv or tooling).
# Needs static/vendor/ first: `npm ci && node scripts/vendor.mjs` (or `make site`), and Python 3.11+
# ($PYTHON, default python3) for scripts/site_manifest.py, with the `docs` extra (MkDocs) for the docs site.
# Used by .github/workflows/pages.yml and by tests/e2e/test_site_build.py.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-_site}
python=${PYTHON:-python3}  # scripts/site_manifest.py: standard library only
case $out in /*) ;; *) out=$root/$out ;; esac

if [[ ! -f $root/static/vendor/pyscript/core.js || ! -f $root/static/vendor/pyodide/pyodide.mjs ]]; then
  echo "build_site: static/vendor/ is missing; run 'npm ci && node scripts/vendor.mjs' first" >&2
  exit 1
fi

rm -rf "$out"
mkdir -p "$out"
# Exactly the site's files (index.html, the PyScript configs, sw.js, py/**/*.py, static/ minus
# make's stamps) as scripts/site_manifest.py lists them: serve.py seals the same list into the
# sw.js it serves, so `make serve` and the deployed site keep the same files offline.
(cd "$root" && "$python" scripts/site_manifest.py files . | xargs -0 cp --parents -t "$out")
# The lab worker's lab.toml and lab.zip, made from pyscript.toml and the files it lists (one fetch, not 63).
"$python" "$root/scripts/site_manifest.py" generate "$out"
# GitHub Pages: serve files as they are (no Jekyll processing of _-prefixed names).
touch "$out/.nojekyll"
# The SHA-256 of every file the service worker may keep, inlined into _site/sw.js: offline it
# serves only bytes with those hashes (docs/explanation/accessibility.md, "Offline after the first visit").
"$python" "$root/scripts/site_manifest.py" seal "$out"
# The documentation site beside the page, at docs/ (mkdocs.yml). It is not in the manifest: the service
# worker lets the browser fetch it as any page, and a visit to the deal never downloads it.
NO_MKDOCS_2_WARNING=1 "$python" -m mkdocs build --strict --quiet -f "$root/mkdocs.yml" -d "$out/docs"
find "$out/docs" -name '*.map' -delete  # the theme's source maps: for its own developers, not for readers

echo "build_site: $(find "$out" -type f | wc -l) files, $(du -sh "$out" | cut -f1) in ${out#"$root"/}"
