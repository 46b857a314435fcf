// chromium.mjs: drives the built page in headless Chromium (Debian's
// /usr/bin/chromium, through playwright-core), for the browser tests and the
// benchmark. Each launch gets a fresh profile, so "first visit" means it.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const chromiumMissing = existsSync(CHROMIUM) ? null : `${CHROMIUM} is missing (Debian: apt-get install chromium)`;

// Resolves to { context, close }: a persistent context on a fresh
// --user-data-dir (so the service worker and caches behave as for a person).
export async function launch() {
  const profile = mkdtempSync(join(tmpdir(), 'aj-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 800 },   // a laptop (issue 12)
  });
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// Collects console errors and uncaught exceptions of a page, for the "no
// console errors" check.
export function watchErrors(page) {
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

// Puts text in the editor as a paste would: select all, then a paste event
// carrying the text (typing would let the editor auto-indent and auto-close).
export async function setCode(page, text) {
  const content = page.locator('.cm-content');
  await content.click();
  await page.keyboard.press('ControlOrMeta+A');
  await content.evaluate((el, value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

// The editor's text, read from the page as a person sees it. CodeMirror
// draws only the lines near the viewport, so this is for short files.
export async function editorText(page) {
  return page.locator('.cm-content').evaluate((el) =>
    [...el.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\n'));
}

// Presses Run and resolves to the verdict shown (AC, WA, ...). The page
// clears the old results in the same event that starts the run, so whatever
// shows up afterwards is this run's. Looked for at every frame: a locator's
// waitFor retries after 0, 20, 100, 100 and then every 500 ms, so a verdict
// could wait half a second to be seen (make bench's edited runs came out at
// either ~0.4 s or ~0.9 s, the page's own clock saying 0.3-0.6 s).
export async function runAndWait(page, { timeout = 120_000, key = false } = {}) {
  if (key) {
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+Enter');
  } else {
    await page.locator('#run').click();
  }
  const shown = await page.waitForFunction(() => {
    const el = document.querySelector('#results .verdict, #results .error');
    return el && (el.getAttribute('data-verdict') ?? `error: ${el.textContent}`);
  }, null, { polling: 'raf', timeout });
  return shown.jsonValue();
}
