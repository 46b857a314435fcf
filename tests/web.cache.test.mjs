// web.cache.test.mjs: the page's compile cache (webCache in
// wasm/platform_web.mjs) over a Cache Storage made in memory: what it finds,
// which lookups it skips once it has listed what the store holds, and how
// much it keeps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEEP, KEEP_BYTES, webCache } from '../wasm/platform_web.mjs';

// A Cache Storage of one cache, which counts its lookups, and whose
// listing (keys) waits while held: a real one answers after a page's
// first lookups may have been made.
function fakeCaches() {
  const kept = new Map();   // url -> Response
  let release = () => {}, gate = Promise.resolve();
  const cache = {
    lookups: 0,
    async keys() {
      await gate;
      return [...kept.keys()].map((url) => new Request(url));
    },
    async match(url) {
      cache.lookups++;
      return kept.get(url)?.clone();
    },
    async put(url, response) {
      kept.delete(url);   // as a real Cache: a put goes last in its listing
      kept.set(url, response);
    },
    async delete(url) {
      return kept.delete(url);
    },
  };
  return {
    storage: { open: async () => cache },
    cache,
    hold() { gate = new Promise((resolve) => { release = resolve; }); },
    release: () => release(),
  };
}

// The fake as the page's Cache Storage for test t.
function installFake(t) {
  const fake = fakeCaches();
  const saved = globalThis.caches;
  globalThis.caches = fake.storage;
  t.after(() => { globalThis.caches = saved; });
  return fake;
}
const base = 'https://judge.test/rt/';

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));
const entry = (n) => ({ ok: true, wasm: new Uint8Array([0, 97, 115, 109, n]), diagnostics: '', notes: [] });

test('the compile cache finds what a page before kept, and looks up a new key only until the store is listed', async (t) => {
  const fake = installFake(t);

  // A first page keeps an entry.
  await webCache(base).put('kept', entry(1));
  await settle();

  // A second page: until its listing is in, a key it lacks is looked up.
  fake.hold();
  const page = webCache(base);
  fake.cache.lookups = 0;
  assert.equal(await page.get('new-before'), null);
  assert.ok(fake.cache.lookups > 0, 'a key is looked up while the store is not listed yet');

  // Once listed: a new key is not looked up; a kept one is, and is found.
  fake.release();
  await settle();
  fake.cache.lookups = 0;
  assert.equal(await page.get('new-after'), null);
  assert.equal(fake.cache.lookups, 0, 'a key the store does not hold is not looked up');
  assert.deepEqual((await page.get('kept'))?.wasm, entry(1).wasm);
  assert.equal(fake.cache.lookups, 2, 'the kept key was looked up (its .json and .wasm)');

  // What this page keeps is found by the next (a reload), which lists it.
  await page.put('mine', entry(2));
  await settle();
  const reloaded = webCache(base);
  await settle();
  fake.cache.lookups = 0;
  assert.deepEqual((await reloaded.get('mine'))?.wasm, entry(2).wasm);
  assert.equal(await reloaded.get('other'), null);
  assert.equal(fake.cache.lookups, 2, 'only the kept key was looked up');
});

test('the compile cache keeps the last KEEP compiles and no module over KEEP_BYTES', async (t) => {
  const fake = installFake(t);
  const kept = async () => (await fake.cache.keys()).map((r) => r.url.replace(/^.*\//, ''));

  // An earlier page's compiles, then this page's: one more than KEEP in all,
  // and the earliest compiled again, so it counts as new.
  const before = webCache(base);
  for (let i = 0; i < 10; i++) await before.put(`old${i}`, entry(i));
  await settle();
  const page = webCache(base);
  await settle();
  for (let i = 0; i < KEEP - 9; i++) await page.put(`new${i}`, entry(i));
  await page.put('old0', entry(0));
  await settle();
  const urls = await kept();
  assert.equal(urls.length, 2 * KEEP, 'KEEP compiles of two entries each');
  assert.ok(!urls.includes('old1.json') && !urls.includes('old1.wasm'), 'the oldest is dropped, both its entries');
  assert.ok(urls.includes('old2.json') && urls.includes('old0.wasm') && urls.includes(`new${KEEP - 10}.wasm`));

  // A module over KEEP_BYTES stays in the page's memory only.
  const big = { ...entry(0), wasm: new Uint8Array(KEEP_BYTES + 1) };
  await page.put('big', big);
  await settle();
  assert.ok(!(await kept()).some((u) => u.startsWith('big.')));
  assert.equal((await page.get('big'))?.wasm, big.wasm);
});
