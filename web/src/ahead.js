// ahead.js: compiles the editor's code while the learner reads or types, so
// that Run finds the module already in the judge's compile cache (or its
// compile under way) and only the judging is left. One compile at a time,
// of the newest text, once typing has paused; nothing is shown from it (Run
// shows the messages).
const PAUSE_MS = 600;

export function compileAhead(judge, problemId) {
  let timer = null, busy = false, next = null;
  async function go() {
    if (busy || next === null) return;
    const source = next;
    next = null;
    busy = true;
    try {
      await judge.compile(problemId, source);
    } catch {
      /* a compile that cannot start fails again, and is shown, at Run */
    }
    busy = false;
    go();
  }
  return {
    // The text now in the editor: compiled after a pause.
    soon(text) {
      clearTimeout(timer);
      next = null;
      timer = setTimeout(() => { next = text; go(); }, PAUSE_MS);
    },
    // Run takes over: nothing more is started ahead.
    stop() {
      clearTimeout(timer);
      next = null;
    },
  };
}
