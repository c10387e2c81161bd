// Shared by the browser tests: a `tabula serve` on a free port with a
// fresh store, Debian's Chromium through playwright-core, and a player that
// makes legal actions by clicking what the page offers.

import { before, after } from 'node:test';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const artifacts = join(here, 'artifacts');
mkdirSync(artifacts, { recursive: true });

/** The tabula binary: $TABULA_BIN, else a release or debug build. */
function binary() {
  if (process.env.TABULA_BIN) return process.env.TABULA_BIN;
  const target = process.env.CARGO_TARGET_DIR || resolve(here, '../../target');
  for (const kind of ['release', 'debug']) {
    const p = join(target, kind, 'tabula');
    if (existsSync(p)) return p;
  }
  throw new Error('no tabula binary: build it (cargo build -p tabula-cli) or set TABULA_BIN');
}

/** Starts `tabula serve` on a free port; resolves to its URL and a stop function. */
export async function startServer() {
  const dir = mkdtempSync(join(tmpdir(), 'tabula-web-'));
  const child = spawn(binary(), ['serve', '--addr', '127.0.0.1:0', '--db', join(dir, 'test.db')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RUST_LOG: 'warn' },
  });
  let errors = '';
  child.stderr.on('data', (d) => { errors += d; });
  const url = await new Promise((ok, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/[^/\s]+\//);
      if (m) ok(m[0].replace(/\/$/, ''));
    });
    child.on('exit', (code) => fail(new Error(`tabula serve exited with ${code}: ${errors}`)));
  });
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((ok) => (child.exitCode !== null ? ok(null) : child.on('exit', ok)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One server and one browser for a test file: started before its first
 * test, stopped after its last. Their members are read when a test runs.
 */
export function suite() {
  let started = null;
  let running = null;
  before(async () => {
    started = await startServer();
    running = await launch();
  });
  after(async () => {
    await running?.close();
    await started?.stop();
  });
  return {
    server: { get url() { return started.url; } },
    browser: { newContext: (options) => running.newContext(options) },
  };
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Creates a table through the API. */
export async function createTable(url, request) {
  const r = await fetch(`${url}/api/tables`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
  if (!r.ok) throw new Error(`creating ${JSON.stringify(request)}: ${r.status} ${await r.text()}`);
  return r.json();
}

/** Records every WebSocket frame a page sends and receives. */
export function recordFrames(page) {
  const frames = { sent: [], received: [] };
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => frames.sent.push(String(f.payload)));
    ws.on('framereceived', (f) => frames.received.push(String(f.payload)));
  });
  return frames;
}

/** Waits until the table page has drawn a view. */
export async function tableReady(page) {
  await page.waitForSelector('body[data-ply] #board svg, body[data-ply] #pass:not([hidden])');
}

export async function ply(page) {
  return Number(await page.getAttribute('body', 'data-ply'));
}

/** Waits until the page's ply is past `before`. */
export async function plyAfter(page, before) {
  await page.waitForFunction((b) => Number(document.body.dataset.ply) > b, before);
  return ply(page);
}

/**
 * Makes one legal action by clicking what the page offers: a piece or a
 * zone item, then a highlighted destination, then the first choice of a
 * picker; or a button. `prefer` orders the buttons (by label part).
 * Returns what was clicked, in words.
 */
export async function clickSomething(page, { avoidButtons = [], pick = 0 } = {}) {
  const before = await ply(page);
  const sent = async () => Number((await page.getAttribute('body', 'data-sent')) || 0);
  const sentBefore = await sent();
  const clicked = [];
  const finish = async () => {
    if ((await sent()) === sentBefore && (await page.locator('#picker:not([hidden]) button').count())) {
      const b = page.locator('#picker:not([hidden]) button').nth(0);
      clicked.push(`choice ${await b.textContent()}`);
      await b.click();
    }
  };
  const targets = async () => page.locator('#board .cell.active:has(.target-dot), #board .cell.active:has(.hl.target)');
  const starts = page.locator('#board .cell.active');
  const items = page.locator('#zones button.item:enabled');
  const buttons = page.locator('#controls button');
  const nStarts = await starts.count();
  if (nStarts > 0) {
    const s = starts.nth(pick % nStarts);
    clicked.push(await s.getAttribute('data-cell'));
    await s.click();
    const t = await targets();
    // A one-click action was sent: the next view's highlights are not ours.
    if ((await sent()) === sentBefore && (await t.count())) {
      clicked.push(await t.nth(0).getAttribute('data-cell'));
      await t.nth(0).click();
    }
    await finish();
  } else if (await items.count()) {
    const it = items.nth(0);
    clicked.push(`item ${await it.getAttribute('data-item')}`);
    await it.click();
    const t = await targets();
    if ((await sent()) === sentBefore && (await t.count())) {
      clicked.push(await t.nth(0).getAttribute('data-cell'));
      await t.nth(0).click();
    }
    await finish();
  } else {
    const n = await buttons.count();
    let chosen = null;
    for (let i = 0; i < n; i++) {
      const text = await buttons.nth(i).textContent();
      if (!avoidButtons.some((a) => text.includes(a))) { chosen = buttons.nth(i); break; }
    }
    if (!chosen && n) chosen = buttons.nth(0);
    if (!chosen) throw new Error('nothing to click');
    clicked.push(`button ${await chosen.textContent()}`);
    await chosen.click();
    await finish();
  }
  // If the clicks only selected (a piece with a one-click menu), use the menu.
  const selected = (await page.locator('#board .hl.selected, #zones [aria-pressed="true"]').count()) > 0;
  if (selected && (await sent()) === sentBefore && (await page.locator('#controls button').count()) && clicked.length === 1) {
    const b = page.locator('#controls button').nth(0);
    clicked.push(`button ${await b.textContent()}`);
    await b.click();
  }
  await plyAfter(page, before);
  return clicked.join(' → ');
}

/** Saves a screenshot under test/artifacts. */
export async function shot(page, name) {
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
}

/** The views a page received, oldest first. */
export function views(frames) {
  return frames.received.map((f) => JSON.parse(f)).filter((m) => m.type === 'view').map((m) => m.view);
}

/** The latest view of the page's acting seat (hotseat pages hold several). */
export async function actingView(page, frames) {
  await page.waitForFunction(() => document.body.dataset.turn === 'mine');
  const at = await ply(page);
  return views(frames).reverse().find((v) => v.ply === at && v.legal.length) || null;
}

/**
 * Makes one entry of `legal` by its gesture, as a player would: the place
 * it starts from (a square, a zone's item or a button), then its square,
 * then its choice in the picker. Resolves once the table moved on.
 */
export async function perform(page, entry) {
  const before = await ply(page);
  const g = entry.gesture;
  const f = g.from;
  if (f.at === 'cell') await page.click(`#board [data-cell="${f.cell}"]`);
  else if (f.at === 'item') await page.click(`#zones details[data-zone="${f.zone}"]${f.owner === undefined ? '' : `[data-owner="${f.owner}"]`} button.item[data-item="${f.item}"]`);
  else await page.click(`#controls button[data-button="${f.button}"]`);
  if (g.to !== undefined) await page.click(`#board [data-cell="${g.to}"]`);
  // A choice is asked only where several entries share the clicks.
  if (g.choice && (await page.locator('#picker:not([hidden])').count())) {
    await page.click(`#picker:not([hidden]) button[data-choice="${g.choice.id}"]`);
  }
  await plyAfter(page, before);
}

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core's WCAG 2.1 A/AA violations on the page as it is now, in words. */
export async function violations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axePath });
  const result = await page.evaluate(() => /** @type {any} */ (window).axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }));
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help}; ${v.nodes.slice(0, 3).map((n) => n.html.slice(0, 120)).join(' | ')}`);
}
