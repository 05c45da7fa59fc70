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

const look = EditorView.theme({
  "&": { border: "1px solid #85837d", fontSize: "0.85rem", maxHeight: "22rem" },
  ".cm-scroller": { fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace', overflow: "auto" },
});

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
  area.after(host);
  area.hidden = true;
  area.dataset.editor = "codemirror";
}
