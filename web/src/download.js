// download.js: the bar for the one-time downloads (the judge, then the
// compiler). It counts the bytes that actually cross the network: the
// service worker reports them for the compiler's large files (the server
// sends those Brotli-compressed, ~21 MB for 105 MB of wasm); the backend's
// own progress, which counts decoded bytes, only says when the download is
// over, or stands in when no worker is in charge.
import { say, t } from './text.js';

const SHOW_AFTER_MS = 300;

export function downloadBar({ box, bar, label }) {
  const wire = new Map();   // url -> { loaded, total }, from the service worker
  let phase = 'judge';
  let own = { loaded: 0, total: 0 };

  function draw() {
    const sum = (k) => [...wire.values()].reduce((a, x) => a + x[k], 0);
    const { loaded, total } = phase === 'compiler' && wire.size ? { loaded: sum('loaded'), total: sum('total') } : own;
    const what = phase === 'compiler' ? t('compiler') : t('judgeDl');
    const mb = (bytes) => (bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0);
    const done = Math.min(loaded, total);
    // Without the worker's counts the compiler comes from the cache (or
    // uncounted): decoded bytes are no transfer size, so no sizes then.
    const sized = total > 1e6 && (phase !== 'compiler' || wire.size > 0);
    label.textContent = sized ? say('download', { what, done: mb(done), total: mb(total) }) : what;
    if (total > 0) {
      bar.max = total;
      bar.value = done;
      bar.setAttribute('aria-valuetext', `${Math.round((100 * done) / total)}%`);
    } else {
      bar.removeAttribute('value');
    }
  }

  // The bar shows for bytes the service worker sees crossing the network,
  // or else for a download still going after a moment: a file from the
  // cache (the judge, on every later visit) would only flash it, and it
  // pushes the page down, moving Run as the learner reaches for it.
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

  navigator.serviceWorker?.addEventListener('message', (e) => {
    if (e.data?.type !== 'download') return;
    wire.set(e.data.url, { loaded: e.data.loaded, total: e.data.total });
    if (showing) show();   // bytes from the network: a real download, shown now
    else if (!box.hidden) draw();
  });

  return {
    // The backend's onProgress({ phase, loaded, total }).
    progress(p) {
      phase = p.phase;
      own = { loaded: p.loaded, total: p.total };
      if (p.total > 0 && p.loaded >= p.total) {
        clearTimeout(showing);
        showing = null;
        box.hidden = true;
      } else if (!box.hidden) draw();
      else if (shown) show();
      else showing ??= setTimeout(show, SHOW_AFTER_MS);
    },
    relabel: () => { if (!box.hidden) draw(); },
  };
}
