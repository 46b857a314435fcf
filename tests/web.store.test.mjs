// web.store.test.mjs: the page's store (web/src/store.js) over a
// localStorage made in memory with a quota: runs kept in the history fill
// the storage in time, and the code being typed must still be saved.
import { test } from 'node:test';
import assert from 'node:assert/strict';

// A localStorage of `quota` characters (keys and values), throwing as a
// browser's does when a write would go past it.
function fakeStorage(quota) {
  const items = new Map();
  const used = () => [...items].reduce((n, [k, v]) => n + k.length + v.length, 0);
  return {
    get length() { return items.size; },
    key: (i) => [...items.keys()][i] ?? null,
    getItem: (k) => items.get(k) ?? null,
    removeItem: (k) => { items.delete(k); },
    setItem(k, v) {
      v = String(v);
      if (used() - (items.has(k) ? k.length + items.get(k).length : 0) + k.length + v.length > quota)
        throw new Error('QuotaExceededError');
      items.set(k, v);
    },
  };
}

// A fresh copy of store.js (nothing of it is cached between tests) over a
// storage of `quota` characters.
async function storeOver(t, quota) {
  const saved = globalThis.localStorage;
  globalThis.localStorage = fakeStorage(quota);
  t.after(() => { globalThis.localStorage = saved; });
  return import(`../web/src/store.js?${Math.random()}`);
}
const run = (id, k) => ({ at: k, verdict: 'WA', mistake: null, code: `/* ${id}:${k} */ ${'x'.repeat(2000)}` });

test('a full storage drops old runs, never the code being typed', async (t) => {
  const store = await storeOver(t, 200_000);

  // Runs of two problems until the storage is full: the history keeps what fits.
  for (let k = 0; k < 120; k++) store.addHistory(49, run(49, k));
  for (let k = 0; k < 30; k++) store.addHistory(50, run(50, k));
  const before = store.history(49).length + store.history(50).length;
  assert.ok(before < 150, 'the storage filled up');

  // Code far longer than the room left is saved all the same, every time.
  for (let k = 1; k <= 5; k++) {
    const text = `int f(void) { return ${k}; }\n`.repeat(1000 * k);
    store.setCode(49, text);
    assert.equal(store.code(49), text);
  }
  const after = [store.history(49), store.history(50)];
  assert.ok(after[0].length + after[1].length < before, 'runs were dropped to make room');
  // The newest runs stay: what went is the older part of a history.
  for (const [id, list] of [[49, after[0]], [50, after[1]]])
    if (list.length) assert.equal(list[0].code, run(id, id === 49 ? 119 : 29).code);
});

test('a run that does not fit takes room from the longest history, not its own', async (t) => {
  const store = await storeOver(t, 100_000);
  for (let k = 0; k < 40; k++) store.addHistory(50, run(50, k));   // ~81 KB
  for (let k = 0; k < 10; k++) store.addHistory(49, run(49, k));   // ~20 KB more than fits
  assert.equal(store.history(49).length, 10, 'every run of 49 kept');
  assert.equal(store.history(50).length, 20, 'the older half of 50 gone');
  assert.equal(store.history(50)[0].code, run(50, 39).code);
});
