// editor.js: the code editor (CodeMirror 6) with C highlighting, the system's
// light or dark theme, Ctrl/Cmd+Enter to run, and clang's diagnostics shown
// on their lines (the first error scrolled into view). It knows nothing about storage or judging: the page passes
// onChange and onRun.
import { EditorView, basicSetup } from 'codemirror';
import { keymap } from '@codemirror/view';
import { Compartment, Prec } from '@codemirror/state';
import { isolateHistory } from '@codemirror/commands';
import { cpp } from '@codemirror/lang-cpp';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { oneDark } from '@codemirror/theme-one-dark';
import { HighlightStyle, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';

const dark = matchMedia('(prefers-color-scheme: dark)');
// CodeMirror's light colours, but for two too faint on white (3.8:1 and 4:1;
// WCAG asks 4.5:1): a header name (<math.h>), escapes, and invalid text.
const READABLE = { '#e40': '#c03d00', '#f00': '#d00000' };
const light = syntaxHighlighting(HighlightStyle.define(defaultHighlightStyle.specs
  .map((spec) => (READABLE[spec.color] ? { ...spec, color: READABLE[spec.color] } : spec))));

export function createEditor(parent, { doc, label, onChange, onRun }) {
  const theme = new Compartment();
  const view = new EditorView({
    parent,
    doc,
    extensions: [
      basicSetup,
      cpp(),
      lintGutter(),
      theme.of(dark.matches ? oneDark : light),
      // Highest precedence: basicSetup binds Mod-Enter to "insert blank line".
      Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => (onRun(), true) }])),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) onChange(u.state.doc.toString());
      }),
      // tabindex: the text is focusable anyway (contenteditable); saying so
      // lets checkers (axe) see that its scrolling box is keyboard-reachable.
      EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0' }),
    ],
  });
  const follow = () => view.dispatch({ effects: theme.reconfigure(dark.matches ? oneDark : light) });
  dark.addEventListener('change', follow);

  return {
    view,
    text: () => view.state.doc.toString(),
    // Replacing through a transaction keeps it undoable (Ctrl+Z), as a step
    // of its own: CodeMirror merges changes less than 500 ms apart, so one
    // Ctrl+Z after a quick Reset also undid the typing just before it.
    // The new text is shown from its start, the cursor there (a view left
    // scrolled sideways hid the start of every line).
    replace(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text },
        annotations: isolateHistory.of('full'), selection: { anchor: 0 },
        effects: EditorView.scrollIntoView(0, { y: 'start', x: 'start' }) });
    },
    // clang's records { line, column, severity, message } (1-based) become
    // marks under the offending token; records without a line (link errors)
    // have no place in the file and are shown with the results instead.
    mark(messages) {
      const doc = view.state.doc;
      const diagnostics = [];
      for (const m of messages || []) {
        if (!(m.line >= 1)) continue;
        const line = doc.line(Math.min(m.line, doc.lines));
        const from = line.from + Math.min(Math.max(m.column - 1, 0), line.length);
        const word = view.state.wordAt(from);
        const to = word && word.from === from ? word.to : Math.min(from + 1, line.to);
        diagnostics.push({
          from,
          to: Math.max(to, from),
          severity: m.severity === 'note' ? 'info' : m.severity === 'warning' ? 'warning' : 'error',
          message: m.message,
          source: 'clang',
        });
      }
      view.dispatch(setDiagnostics(view.state, diagnostics));
      // The first error (else the first message) is scrolled into view with
      // the cursor on it, so the learner sees where clang stopped.
      const first = diagnostics.find((d) => d.severity === 'error') ?? diagnostics[0];
      if (first) view.dispatch({ selection: { anchor: first.from }, effects: EditorView.scrollIntoView(first.from, { y: 'center' }) });
    },
    focus: () => view.focus(),
    destroy() {
      dark.removeEventListener('change', follow);
      view.destroy();
    },
  };
}
