// Accessibility in a real browser: axe-core's WCAG 2.1 A and AA rules
// (colour contrast, names of controls, label in name...) on the lobby, the
// rules pages and every game's table at phone (360 px) and desktop widths;
// no sideways scrolling at 360 px; and every control reached with Tab.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suite, createTable, tableReady, shot, violations } from './harness.mjs';

const GAMES = ['chess', 'epoch', 'skirmish', 'warrior', 'covenant', 'lytharia'];

const { server, browser } = suite();

/** The pages to check: the lobby, each rules page, each game's table. */
async function pages() {
  const out = [['lobby', '/'], ...GAMES.map((g) => [`rules-${g}`, `/rules/${g}`])];
  for (const game of GAMES) {
    const created = await createTable(server.url, { game, seats: ['human', 'computer:easy'], seed: 1 });
    out.push([`table-${game}`, `/t/${created.table}#t=${created.seats[0].link_token}`]);
  }
  return out;
}

for (const width of [360, 1280]) {
  test(`WCAG 2.1 AA by axe-core, and no sideways scrolling, at ${width} px`, async () => {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    const found = [];
    for (const [name, path] of await pages()) {
      await page.goto(`${server.url}${path}`);
      if (path.startsWith('/t/')) await tableReady(page);
      else await page.waitForSelector(path === '/' ? 'body[data-ready]' : '#rules h2');
      for (const v of await violations(page)) found.push(`${name}: ${v}`);
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
      if (scroll > width) found.push(`${name}: ${scroll} px wide, wider than the screen`);
      if (width === 360 && path.startsWith('/t/')) await shot(page, `phone-${name}`);
    }
    assert.deepEqual(found, []);
    await context.close();
  });
}

/**
 * Presses Tab until the focus comes round again; returns which of the
 * page's controls it reached and which it never did.
 */
async function tabWalk(page) {
  const total = await page.evaluate(() => {
    const controls = [...document.querySelectorAll('a[href], button, select, input, summary, [role="button"]')]
      .filter((e) => !(/** @type {any} */ (e).disabled) && e.getClientRects().length > 0 && !e.closest('[hidden], details:not([open]) > :not(summary)'));
    controls.forEach((e, i) => e.setAttribute('data-k', String(i)));
    return controls.length;
  });
  const reached = new Set();
  // Squares where nothing can be done must not be Tab stops.
  let stray = 0;
  await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement)?.blur());
  for (let i = 0; i < total + 20; i++) {
    await page.keyboard.press('Tab');
    const [k, onBoard] = await page.evaluate(() => [document.activeElement && document.activeElement.getAttribute('data-k'), !!(document.activeElement && document.activeElement.closest('#board'))]);
    if (k === null && onBoard) stray++;
    if (k === null) continue;
    if (reached.has(k) && reached.size >= total) break;
    reached.add(k);
  }
  const missed = await page.evaluate((got) => [...document.querySelectorAll('[data-k]')]
    .filter((e) => !got.includes(e.getAttribute('data-k')))
    .map((e) => e.getAttribute('aria-label') || e.textContent.trim().slice(0, 40)), [...reached]);
  return { total, missed, stray };
}

test('every control of the lobby and of a table is reached with Tab', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/`);
  await page.waitForSelector('body[data-ready]');
  const lobby = await tabWalk(page);
  assert.ok(lobby.total >= 10, `the lobby has its controls (${lobby.total})`);
  assert.deepEqual(lobby.missed, [], 'lobby controls Tab never reaches');
  // A Warrior table: the board's movable pieces, the Bank's items, the
  // history and table buttons.
  const created = await createTable(server.url, { game: 'warrior', seats: ['human', 'computer:easy'], seed: 1 });
  await page.goto(`${server.url}/t/${created.table}#t=${created.seats[0].link_token}`);
  await tableReady(page);
  await page.waitForFunction(() => document.body.dataset.turn === 'mine');
  const table = await tabWalk(page);
  assert.ok(table.total >= 8, `the table has its controls (${table.total})`);
  assert.deepEqual(table.missed, [], 'table controls Tab never reaches');
  assert.equal(table.stray, 0, 'no Tab stop on a square where nothing can be done');
  await shot(page, 'keyboard-table');
  await context.close();
});
