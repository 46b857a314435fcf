// download.js: the bar for the one-time downloads (the judge, then the
// compiler). The compiler's progress counts the bytes that actually cross
// the network (the server sends its files Brotli-compressed, ~20 MB for
// 105 MB of wasm); read from the offline cache it has no sizes to show.
import { say, t } from './text.js';

const SHOW_AFTER_MS = 300;

export function downloadBar({ box, bar, label }) {
  let phase = 'judge';
  let last = { loaded: 0, total: 0, cached: false };

  function draw() {
    const { loaded, total, cached } = last;
    const what = phase === 'compiler' ? t('compiler') : t('judgeDl');
    const mb = (bytes) => (bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0);
    const done = Math.min(loaded, total);
    const sized = total > 1e6 && !cached;
    label.textContent = sized ? say('download', { what, done: mb(done), total: mb(total) }) : what;
    if (total > 0) {
      bar.max = total;
      bar.value = done;
      bar.setAttribute('aria-valuetext', `${Math.round((100 * done) / total)}%`);
    } else {
      bar.removeAttribute('value');
    }
  }

  // The bar shows for the compiler's bytes from the network at once, or else
  // for a download still going after a moment: a file from the cache (the
  // judge, on every later visit) would only flash it, and it pushes the page
  // down, moving Run as the learner reaches for it.
  // Once shown, the bar comes back at once for the next file of the same
  // download (the compiler is several).
  let showing = null, shown = false;
  const show = () => {
    clearTimeout(showing);
    showing = null;
    shown = true;
    box.hidden = false;
    draw();
  };

  return {
    // The backend's onProgress({ phase, loaded, total, cached }).
    progress(p) {
      phase = p.phase;
      last = { loaded: p.loaded, total: p.total, cached: Boolean(p.cached) };
      if (p.total > 0 && p.loaded >= p.total) {
        clearTimeout(showing);
        showing = null;
        box.hidden = true;
      } else if (!box.hidden) draw();
      else if (shown || (p.phase === 'compiler' && !p.cached)) show();
      else showing ??= setTimeout(show, SHOW_AFTER_MS);
    },
    relabel: () => { if (!box.hidden) draw(); },
  };
}
