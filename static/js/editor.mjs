// The lab's code editor, loaded when the lab is first shown (CodeMirror is 0.45 MB: the
// deal never waits for it). The code lives in a plain <textarea data-editor>, which is
// what Python reads and writes; where CodeMirror loads, it edits the same text, copied
// back to the textarea (with an "input" event) on every change, and Python's own writes
// reach it through a "shufflelab:set" event. If it fails to load, the textarea stays.
//
// The editor lives in a shadow root: there CodeMirror styles itself with constructable
// style sheets, which the site's Content-Security-Policy (style-src 'self') allows, where
// in the document it would add a <style> element, which the policy refuses.
import { EditorView, basicSetup, python } from "../vendor/pyscript/editor.js";

// The page's colours (custom properties reach into the shadow root), so the editor follows light and dark.
const look = EditorView.theme({
  "&": { border: "1px solid var(--control-border)", fontSize: "0.85rem", maxHeight: "22rem",
         backgroundColor: "var(--panel)", color: "var(--fg)" },
  ".cm-scroller": { fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace', overflow: "auto" },
  ".cm-gutters": { backgroundColor: "var(--bg)", color: "var(--muted)", borderRight: "1px solid var(--border)" },
  ".cm-activeLine": { backgroundColor: "transparent" },
  ".cm-activeLineGutter": { backgroundColor: "var(--border)", color: "var(--fg)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--fg)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground":
    { background: "var(--border)" },
});

// CodeMirror's default highlighting has one colour per token kind, chosen for a white page: its keywords
// are 1.32:1 on the dark panel, and two of its colours 4:1 on white. Each token rule it added to the
// shadow root gets a colour for each scheme, mixed toward black (light) or white (dark) until it reaches
// 4.5:1 (with a little room) on that scheme's panel: tokens keep their hues, and a new CodeMirror colour
// is handled the same way (test_a11y.py checks every token in both schemes).
const PANELS = { light: [255, 255, 255], dark: [0x1d, 0x20, 0x24] }; // --panel in site.css
const luminance = (rgb) => rgb.map((v) => v / 255)
  .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
  .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const readable = (rgb, panel, toward) => {
  for (let share = 0; share <= 1; share += 0.05) {
    const mixed = rgb.map((v, i) => Math.round(v + (toward[i] - v) * share));
    if (contrast(mixed, panel) >= 4.7) return mixed;
  }
  return toward;
};
function readableTokens(root) {
  const probe = document.createElement("span");
  const rules = [];
  for (const sheet of root.adoptedStyleSheets) {
    for (const rule of sheet.cssRules) {
      if (!(rule instanceof CSSStyleRule) || !rule.style.color || !/^\.ͼ\w+$/.test(rule.selectorText)) continue;
      probe.style.color = rule.style.color; // any CSS colour, read back as rgb() by the browser
      document.body.append(probe);
      const rgb = getComputedStyle(probe).color.match(/\d+/g).slice(0, 3).map(Number);
      probe.remove();
      const light = readable(rgb, PANELS.light, [0, 0, 0]);
      const dark = readable(rgb, PANELS.dark, [255, 255, 255]);
      rules.push(`${rule.selectorText} { color: rgb(${light}); }`,
        `@media (prefers-color-scheme: dark) { ${rule.selectorText} { color: rgb(${dark}); } }`);
    }
  }
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(rules.join("\n"));
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

for (const area of document.querySelectorAll("textarea[data-editor]")) {
  const label = document.querySelector(`label[for="${area.id}"]`);
  const host = document.createElement("div");
  host.className = "code-editor";
  const root = host.attachShadow({ mode: "open" });
  const view = new EditorView({
    doc: area.value,
    root,
    parent: root,
    extensions: [
      basicSetup,
      python(),
      look,
      EditorView.lineWrapping, // a long line wraps: nothing hides to the right, on a phone least of all
      EditorView.contentAttributes.of({ "aria-label": label ? label.textContent : "Code" }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) {
          area.value = update.state.doc.toString();
          area.dispatchEvent(new Event("input"));
        }
      }),
    ],
  });
  area.addEventListener("shufflelab:set", () => {
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: area.value } });
  });
  readableTokens(root);
  area.after(host);
  area.hidden = true;
  area.dataset.editor = "codemirror";
}
