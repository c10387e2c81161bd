// Every game in a real browser: from the lobby against the computer, a
// legal action by clicking, the computer's answer, a reload that shows the
// same position, and a click where nothing is legal that changes nothing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suite, recordFrames, tableReady, ply, clickSomething, shot } from './harness.mjs';

const { server, browser } = suite();

/** The last view a page received. */
function lastView(frames) {
  for (let i = frames.received.length - 1; i >= 0; i--) {
    const m = JSON.parse(frames.received[i]);
    if (m.type === 'view') return m.view;
  }
  return null;
}

function boardLabels(page) {
  return page.$$eval('#board [data-cell]', (cells) => cells.map((c) => c.getAttribute('aria-label')).join('\n'));
}

async function waitMine(page) {
  await page.waitForFunction(() => document.body.dataset.turn === 'mine' || document.body.dataset.turn === 'over', null, { timeout: 30000 });
}

for (const game of ['chess', 'epoch', 'skirmish', 'warrior', 'covenant', 'lytharia']) {
  test(`${game}: played by clicking against the computer, and kept over a reload`, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const frames = recordFrames(page);
    await page.goto(`${server.url}/`);
    await page.waitForSelector('body[data-ready]');
    await page.click(`.game-card[data-game="${game}"]`);
    await page.waitForFunction((g) => document.querySelector(`.game-card[data-game="${g}"]`)?.getAttribute('aria-checked') === 'true', game);
    // The easy computer answers at once, which keeps the run short.
    await page.selectOption('#seat-1', 'computer:easy');
    await page.click('#create');
    await page.waitForURL(/\/t\/\d+#t=/);
    await tableReady(page);
    await waitMine(page);

    // One legal action, made by clicking: what the page sends is one of `legal`.
    const offered = lastView(frames).legal.map((e) => JSON.stringify(e.action));
    const sentBefore = frames.sent.length;
    const start = await ply(page);
    const clicked = await clickSomething(page);
    const sent = frames.sent.slice(sentBefore).map((f) => JSON.parse(f));
    assert.equal(sent.length, 1, `one message for ${clicked}`);
    assert.equal(sent[0].type, 'action');
    assert.ok(offered.includes(JSON.stringify(sent[0].action)), `${clicked} sent a legal action`);
    const mySeat = lastView(frames).viewer.player;

    // The rest of the turn (phases, more acts), then the computer answers.
    for (let i = 0; i < 80 && (await page.getAttribute('body', 'data-turn')) === 'mine'; i++) {
      const v = lastView(frames);
      if (v.moves.some((m) => m.ply > start && m.player !== undefined && m.player !== mySeat)) break;
      const end = v.legal.find((e) => e.gesture.kind === 'end-turn' && e.gesture.from.at === 'button');
      if (end && i > 0) {
        const b = page.locator(`#controls button[data-button="${end.gesture.from.button}"]`);
        const p = await ply(page);
        await b.click();
        await page.waitForFunction((x) => Number(document.body.dataset.ply) > x, p);
      } else {
        await clickSomething(page, { pick: i });
      }
    }
    await page.waitForFunction((s) => {
      return document.body.dataset.turn === 'mine' || document.body.dataset.turn === 'over';
    }, mySeat, { timeout: 30000 });
    const answered = lastView(frames).moves.filter((m) => m.ply > start && m.player !== undefined && m.player !== mySeat);
    assert.ok(answered.length > 0, 'the computer answered');
    const computerName = lastView(frames).seats[1 - mySeat].name;
    await page.waitForFunction((n) => [...document.querySelectorAll('#moves button')].some((b) => b.textContent.startsWith(n)), computerName);

    // A reload shows the same position and move list.
    const labels = await boardLabels(page);
    const moves = await page.textContent('#moves');
    const at = await ply(page);
    await page.reload();
    await tableReady(page);
    await page.waitForFunction((p) => Number(document.body.dataset.ply) === p, at);
    assert.equal(await boardLabels(page), labels, 'the same board after a reload');
    assert.equal(await page.textContent('#moves'), moves, 'the same moves after a reload');

    // A click on a cell with no legal action changes nothing and sends nothing.
    await waitMine(page);
    const idle = page.locator('#board .cell:not(.active)').first();
    const boardBefore = await page.innerHTML('#board');
    const sentCount = frames.sent.length;
    await idle.click({ force: true });
    assert.equal(await page.innerHTML('#board'), boardBefore, 'the board is unchanged');
    assert.equal(frames.sent.length, sentCount, 'nothing was sent');
    await shot(page, `game-${game}`);
    await context.close();
  });
}
