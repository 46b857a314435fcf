// web.offline.test.mjs: when the page registers its offline layer
// (offlineLayer and offlineQuiet in web/src/judge.js), under mocked timers
// and a navigator that counts registrations: at once, or, on a page that
// loads the compiler at once, in its first quiet moment after no Run.
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';

// A fresh copy of judge.js (its state is the module's), the registrations
// counted.
async function page(t) {
  const saved = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  const registered = [];
  Object.defineProperty(globalThis, 'navigator', { configurable: true, value: {
    serviceWorker: { register: async (url) => { registered.push(url); } },
  } });
  t.mock.timers.enable({ apis: ['setTimeout'] });
  t.after(() => {
    if (saved) Object.defineProperty(globalThis, 'navigator', saved);
    else delete globalThis.navigator;
  });
  const judge = await import(`../web/src/judge.js?${Math.random()}`);
  return { judge, registered, tick: (ms) => t.mock.timers.tick(ms) };
}

test('any other page registers the offline layer at once, and once', async (t) => {
  const { judge, registered } = await page(t);
  judge.offlineLayer();
  judge.offlineLayer({ later: true });
  judge.offlineQuiet(true);
  assert.deepEqual(registered, ['./sw.js']);
});

test('a page that loads the compiler at once registers it after 5 s without a Run', async (t) => {
  const { judge, registered, tick } = await page(t);
  judge.offlineLayer({ later: true });
  tick(3000);
  judge.offlineQuiet(false);   // a Run (a cold one takes seconds)
  tick(20_000);
  assert.equal(registered.length, 0, 'not during a Run');
  judge.offlineQuiet(true);    // its verdict
  tick(4999);
  assert.equal(registered.length, 0);
  tick(1);
  assert.equal(registered.length, 1);
  judge.offlineQuiet(false);
  judge.offlineQuiet(true);
  tick(60_000);
  assert.equal(registered.length, 1, 'once');
});

test('runs one after another delay it, for a minute at most', async (t) => {
  const { judge, registered, tick } = await page(t);
  judge.offlineLayer({ later: true });
  for (let s = 0; s < 59; s++) {
    judge.offlineQuiet(false);
    tick(500);
    judge.offlineQuiet(true);
    tick(500);
  }
  assert.equal(registered.length, 0);
  tick(1000);
  assert.equal(registered.length, 1);
});

test('leaving for the list registers it at once', async (t) => {
  const { judge, registered } = await page(t);
  judge.offlineLayer({ later: true });
  judge.offlineLayer();
  assert.equal(registered.length, 1);
});
