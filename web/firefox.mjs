// firefox.mjs: drives the built page in headless Firefox (Debian's
// firefox-esr) through puppeteer-core over WebDriver BiDi, for
// tests/e2e.firefox.test.mjs. Each launch gets a fresh profile, so "first
// visit" means it; the HTTP cache is off, so whatever loads offline comes
// from the service worker.
import puppeteer from 'puppeteer-core';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const FIREFOX = process.env.FIREFOX || '/usr/bin/firefox-esr';
export const firefoxMissing = existsSync(FIREFOX) ? null : `${FIREFOX} is missing (Debian: apt-get install firefox-esr)`;

export async function launch() {
  const profile = mkdtempSync(join(tmpdir(), 'aj-firefox-'));
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    protocol: 'webDriverBiDi',
    headless: true,
    userDataDir: profile,
    defaultViewport: { width: 1280, height: 800 },
    extraPrefsFirefox: {
      'browser.cache.disk.enable': false,
      'browser.cache.memory.enable': false,
      'dom.serviceWorkers.enabled': true,
      'dom.serviceWorkers.testing.enabled': true,
    },
  });
  return {
    browser,
    async close() {
      await browser.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// Puts text in the editor as one paste. Firefox drops the data of a
// synthetic paste event, so the text goes in as the editor's own paste
// transaction, through the view CodeMirror keeps on its DOM (cmTile).
export async function setCode(page, text) {
  await page.$eval('.cm-content', (el, value) => {
    const view = el.cmTile.root.view;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: value }, userEvent: 'input.paste' });
    view.focus();
  }, text);
}

// Presses Run and resolves to the verdict shown (AC, WA, ...).
export async function runAndWait(page, { timeout = 180_000 } = {}) {
  await page.click('#run');
  const shown = await page.waitForSelector('#results .verdict, #results .error', { timeout });
  return shown.evaluate((el) => el.dataset.verdict ?? `error: ${el.textContent}`);
}
