// The games' own controls and the table's clock, clicked in a real
// browser: a clock that runs out, Warrior's Swords facing picker, and the
// Skirmish defender's choice to stay or take the square, with the dice.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suite, createTable, recordFrames, tableReady, ply, plyAfter, actingView, perform, shot, violations } from './harness.mjs';

const { server, browser } = suite();

/** Opens a table page holding `tokens` (hotseat when several). */
async function open(created, tokens = created.seats.map((s) => s.link_token)) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const frames = recordFrames(page);
  await page.goto(`${server.url}/t/${created.table}#t=${tokens.join(',')}`);
  await tableReady(page);
  return { context, page, frames };
}

test('a clock that runs out ends the game, and the page says who won and why', async () => {
  // One second each; each seat's first move is untimed, so White's clock
  // starts after the computer's reply and falls with nobody clicking.
  const created = await createTable(server.url, { game: 'chess', seats: ['human', 'computer:easy'], seed: 6, clock: { initial_seconds: 1, increment_seconds: 0 } });
  const { context, page } = await open(created, [created.seats[0].link_token]);
  assert.equal(await page.textContent('.clock[data-seat="0"] .time'), '0:01');
  await page.click('#board [data-cell="e2"]');
  await page.click('#board [data-cell="e4"]');
  await page.waitForFunction(() => document.body.dataset.turn === 'over', null, { timeout: 15000 });
  assert.equal(await ply(page), 2, 'the flag fell on White\'s second move, with nothing sent');
  assert.match(await page.textContent('#status'), /^Black wins on time\. You lose\.$/);
  assert.equal(await page.textContent('.clock[data-seat="0"] .time'), '0:00');
  assert.equal(await page.locator('#board .cell.active').count(), 0, 'nothing to click once the game is over');
  assert.ok(await page.locator('[data-table-action="rematch"]').count(), 'a rematch is offered');
  await shot(page, 'clock-flag');
  assert.deepEqual(await violations(page), [], 'WCAG 2.1 AA (axe-core) with this on the screen');
  await context.close();
});

test("Warrior: arming a Warrior with Swords asks which way they face, and the board shows it", async () => {
  const created = await createTable(server.url, { game: 'warrior', seats: ['human', 'human'], seed: 7 });
  const { context, page, frames } = await open(created);
  // Each seat drops one Warrior, then buys a Swords as soon as it can, and
  // otherwise moves or ends its phase, until a Swords can be placed.
  let arm = null;
  for (let i = 0; i < 40 && !arm; i++) {
    const view = await actingView(page, frames);
    const g = (e) => e.gesture;
    arm = view.legal.find((e) => g(e).kind === 'arm' && g(e).from.item === 'swords');
    if (arm) break;
    const me = view.to_act.player;
    const warriors = view.board.pieces.filter((p) => p.owner === me && p.piece === 'warrior');
    const entry = view.legal.find((e) => g(e).kind === 'buy' && g(e).from.item.endsWith('-swords'))
      || (warriors.length === 0 && view.legal.find((e) => g(e).kind === 'drop' && g(e).from.zone === 'bank'))
      || view.legal.find((e) => g(e).kind === 'move')
      || view.legal.find((e) => g(e).from.at === 'button');
    await perform(page, entry);
  }
  assert.ok(arm, 'a Swords in the Reserve and a Warrior to arm');
  const square = arm.gesture.to;
  const me = (await actingView(page, frames)).to_act.player;
  await page.click(`#zones details[data-zone="reserve"][data-owner="${me}"] button.item[data-item="swords"]`);
  assert.match(await page.getAttribute(`#board [data-cell="${square}"]`, 'aria-label'), /a legal destination/);
  await page.click(`#board [data-cell="${square}"]`);
  // The picker names the four facings; nothing is sent before one is chosen.
  const choices = await page.locator('#picker:not([hidden]) button[data-choice]').allTextContents();
  assert.deepEqual(choices, ['Swords facing north', 'Swords facing east', 'Swords facing south', 'Swords facing west']);
  await shot(page, 'warrior-swords-facing');
  assert.deepEqual(await violations(page), [], 'WCAG 2.1 AA (axe-core) with this on the screen');
  const before = await ply(page);
  await page.click('#picker button[data-choice="east"]');
  await plyAfter(page, before);
  assert.match(await page.getAttribute(`#board [data-cell="${square}"]`, 'aria-label'), /armed with swords, Swords facing east/);
  // The arrow on the piece points east: to the right, from this side.
  const arrow = page.locator(`#board [data-cell="${square}"] path[transform^="rotate("]`);
  assert.match(await arrow.getAttribute('transform'), /^rotate\(90 /);
  // Seen from the other side, east is to the left: the arrow turns with the board.
  await page.click('#flip');
  assert.match(await page.locator(`#board [data-cell="${square}"] path[transform^="rotate("]`).getAttribute('transform'), /^rotate\(270 /);
  await context.close();
});

test('Skirmish: a defender that holds sees the dice and chooses to stay or take the square', async () => {
  // The seeded dice decide the fight: try seeds until the defender holds.
  for (let seed = 1; seed <= 20; seed++) {
    const created = await createTable(server.url, { game: 'skirmish', seats: ['human', 'human'], seed });
    const { context, page, frames } = await open(created);
    for (const [from, to] of [['e2', 'e4'], ['d7', 'd5']]) {
      const view = await actingView(page, frames);
      await perform(page, view.legal.find((e) => e.gesture.from.cell === from && e.gesture.to === to && e.gesture.kind === 'move'));
    }
    const view = await actingView(page, frames);
    await perform(page, view.legal.find((e) => e.gesture.from.cell === 'e4' && e.gesture.to === 'd5' && e.gesture.kind === 'capture'));
    await page.waitForFunction(() => document.body.dataset.turn === 'mine' || document.body.dataset.turn === 'over');
    const after = await actingView(page, frames);
    if (!after.legal.some((e) => e.gesture.kind === 'decide')) {
      // The attacker won: this seed is not the case wanted.
      await context.close();
      continue;
    }
    // The dice of the fight, in words, beside the board.
    const dice = await page.locator('.game-panel .dice').allTextContents();
    assert.ok(dice.some((d) => /^Dice: White rolls \d, Black rolls \d$/.test(d)), `the dice are shown: ${dice.join(' | ')}`);
    const fight = after.last.events.find((e) => e.kind === 'fight');
    assert.equal(fight.data.winner, 'defender');
    assert.ok(dice.some((d) => d.includes(fight.text)), 'the fight is told as it was decided');
    // Stay is a button; taking is a click on the defender, then on e4.
    const stay = page.locator('#controls button[data-button="stay"]');
    assert.match(await stay.textContent(), /^Stay/);
    assert.match(await page.getAttribute('#board [data-cell="e4"]', 'aria-label'), /^e4, empty/);
    await page.click('#board [data-cell="d5"]');
    assert.match(await page.getAttribute('#board [data-cell="e4"]', 'aria-label'), /a legal destination/);
    await shot(page, 'skirmish-stay-or-take');
  assert.deepEqual(await violations(page), [], 'WCAG 2.1 AA (axe-core) with this on the screen');
    const before = await ply(page);
    await page.click('#board [data-cell="e4"]');
    await plyAfter(page, before);
    await page.waitForFunction(() => document.body.dataset.turn === 'mine');
    assert.match(await page.getAttribute('#board [data-cell="e4"]', 'aria-label'), /^e4, Black Pawn/);
    assert.match(await page.getAttribute('#board [data-cell="d5"]', 'aria-label'), /^d5, empty/);
    await context.close();
    return;
  }
  assert.fail('no seed of 1 to 20 gave the defender the fight');
});

/** Opens each seat's link in its own browser context. */
async function openEach(created) {
  const out = [];
  for (const s of created.seats) out.push(await open(created, [s.link_token]));
  return out;
}

test("Epoch's swap: Black takes White's side, and each board turns to its player's new colour", async () => {
  const created = await createTable(server.url, { game: 'epoch', seats: ['human', 'human'], seed: 8 });
  const [first, second] = await openEach(created);
  const bottomLeft = async (page) => {
    // The cell drawn at the board's bottom-left corner.
    return page.$eval('#board svg', (svg) => {
      const n = Math.round(Math.sqrt(svg.querySelectorAll('[data-cell]').length));
      const size = svg.viewBox.baseVal.width / n;
      const g = [...svg.querySelectorAll('[data-cell]')].find((c) => c.getAttribute('transform') === `translate(0 ${(n - 1) * size})`);
      return g && g.getAttribute('data-cell');
    });
  };
  assert.equal(await bottomLeft(first.page), 'a1', 'White sees a1 at the bottom left');
  assert.equal(await bottomLeft(second.page), 'm13', 'Black sees m13 at the bottom left');
  const view = await actingView(first.page, first.frames);
  await perform(first.page, view.legal.find((e) => e.gesture.kind === 'move'));
  await second.page.waitForSelector('#controls button[data-button="swap"]');
  assert.match(await second.page.textContent('#game-panel'), /Black may swap sides instead of moving/);
  const before = await ply(second.page);
  await second.page.click('#controls button[data-button="swap"]');
  await plyAfter(second.page, before);
  // The first player now plays Black and is to move; the boards turned.
  await first.page.waitForFunction(() => document.body.dataset.turn === 'mine');
  assert.match(await first.page.textContent('#seat-bar'), /Black \(you\)[^]*Colour: Black/);
  assert.match(await second.page.textContent('#log'), /Black takes White's side/);
  assert.equal(await bottomLeft(first.page), 'm13', 'the first player, now Black, sees m13 at the bottom left');
  assert.equal(await bottomLeft(second.page), 'a1', 'the second player, now White, sees a1 at the bottom left');
  await shot(second.page, 'epoch-swapped');
  for (const p of [first, second]) await p.context.close();
});

test('a draw offered on one screen is accepted on the other', async () => {
  const created = await createTable(server.url, { game: 'chess', seats: ['human', 'human'], seed: 10 });
  const [white, black] = await openEach(created);
  await white.page.click('[data-table-action="offer-draw"]');
  await black.page.waitForSelector('[data-table-action="accept-draw"]');
  assert.match(await black.page.textContent('#table-actions'), /White offers a draw\./);
  assert.equal(await white.page.locator('[data-table-action="accept-draw"]').count(), 0, 'the offering side cannot accept its own offer');
  await shot(black.page, 'draw-offer');
  assert.deepEqual(await violations(black.page), [], 'WCAG 2.1 AA (axe-core) with this on the screen');
  await black.page.click('[data-table-action="accept-draw"]');
  for (const p of [white, black]) {
    await p.page.waitForFunction(() => document.body.dataset.turn === 'over');
    assert.match(await p.page.textContent('#status'), /agreement.*A draw\./i);
  }
  for (const p of [white, black]) await p.context.close();
});

test('the record exports as a file with the moves played', async () => {
  const created = await createTable(server.url, { game: 'chess', seats: ['human', 'computer:easy'], seed: 12 });
  const { context, page, frames } = await open(created, [created.seats[0].link_token]);
  await perform(page, (await actingView(page, frames)).legal.find((e) => e.notation === 'e4'));
  await page.waitForFunction(() => document.body.dataset.turn === 'mine');
  const reply = (await actingView(page, frames)).moves[1].notation;
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
  assert.match(download.suggestedFilename(), /^tabula-chess-\d+\.\w+$/);
  const text = await new Promise((ok, fail) => download.createReadStream().then((s) => {
    let t = '';
    s.on('data', (d) => { t += d; });
    s.on('end', () => ok(t));
    s.on('error', fail);
  }, fail));
  assert.match(text, /e4/);
  assert.ok(text.includes(reply.replace(/[+#]$/, '')), `the computer's reply ${reply} is in the record:\n${text}`);
  await shot(page, 'record-export');
  await context.close();
});

test('Covenant: a recruit bought from the panel with its price shown stands beside a royal, and the Grails go down', async () => {
  // The quick scenario: its royals have free hexes beside them from the start.
  const created = await createTable(server.url, { game: 'covenant', options: { scenario: 'crossroads' }, seats: ['human', 'human'], seed: 13 });
  const { context, page, frames } = await open(created);
  const view = await actingView(page, frames);
  const me = view.to_act.player;
  const recruit = view.legal.find((e) => e.gesture.kind === 'recruit');
  assert.ok(recruit, 'a recruit is offered on the first turn');
  const grails = () => page.$eval(`#seat-bar .seat:nth-child(${me + 1}) .holdings`, (e) => Number(e.textContent.match(/Grails: (\d+)/)[1]));
  const before = await grails();
  const item = page.locator(`#zones details[data-zone="recruits"][data-owner="${me}"] button.item[data-item="${recruit.gesture.from.item}"]`);
  const label = await item.textContent();
  const price = Number(label.match(/\((\d+) Grails?\)/)[1]);
  await item.click();
  assert.equal(await item.getAttribute('aria-pressed'), 'true', 'the recruit is selected');
  const hexes = await page.locator('#board .cell.active:has(.target-dot)').count();
  assert.ok(hexes > 0, 'the free hexes beside the royals light up');
  await shot(page, 'covenant-recruit');
  assert.deepEqual(await violations(page), [], 'WCAG 2.1 AA (axe-core) with this on the screen');
  const at = await ply(page);
  await page.click(`#board [data-cell="${recruit.gesture.to}"]`);
  await plyAfter(page, at);
  const name = label.replace(/\s*\(.*$/, '');
  assert.match(await page.getAttribute(`#board [data-cell="${recruit.gesture.to}"]`, 'aria-label'), new RegExp(`Gold ${name}`));
  assert.equal(await grails(), before - price, `the ${price} Grails are paid`);
  await context.close();
});

test('Lytharia: a spell cast on one screen waits on the stack, named, until the other player passes', async () => {
  const created = await createTable(server.url, { game: 'lytharia', seats: ['human', 'human'], seed: 11 });
  const seats = await openEach(created);
  const acting = async () => {
    for (;;) {
      for (const s of seats) if ((await s.page.getAttribute('body', 'data-turn')) === 'mine') return s;
      await seats[0].page.waitForTimeout(50);
    }
  };
  // Place the troops, then the first spell with a target is cast.
  let cast = null;
  let caster = null;
  for (let i = 0; i < 40 && !cast; i++) {
    const s = await acting();
    const view = await actingView(s.page, s.frames);
    cast = view.legal.find((e) => e.gesture.kind === 'cast' && e.gesture.to);
    if (cast) caster = s;
    await perform(s.page, cast || view.legal[0]);
    const now = await ply(s.page);
    for (const q of seats) await q.page.waitForFunction((n) => Number(document.body.dataset.ply) >= n, now);
  }
  assert.ok(cast, 'a spell could be cast');
  const other = seats.find((s) => s !== caster);
  const catalog = JSON.parse(other.frames.received.find((f) => f.includes('"type":"catalog"'))).catalog;
  const spell = catalog.extra.cards.find((c) => c.id === cast.gesture.from.item).name;
  await other.page.waitForSelector('#controls button[data-button="pass"]');
  const entry = await other.page.textContent('#game-panel .stack li');
  assert.match(entry, new RegExp(`: ${spell} on ${cast.gesture.to}$`), 'the stack names the spell and its target');
  assert.match(await other.page.textContent('#game-panel'), /Respond with a spell from your hand, or pass/);
  assert.equal(await caster.page.textContent('#game-panel .stack li'), entry, 'the caster sees the same stack');
  assert.equal(await caster.page.locator('#controls button[data-button="pass"]').count(), 0, 'the caster waits');
  await shot(other.page, 'lytharia-stack');
  assert.deepEqual(await violations(other.page), [], 'WCAG 2.1 AA (axe-core) with this on the screen');
  const at = await ply(other.page);
  await other.page.click('#controls button[data-button="pass"]');
  await plyAfter(other.page, at);
  await caster.page.waitForFunction((n) => Number(document.body.dataset.ply) > n, at);
  assert.equal(await other.page.locator('#game-panel .stack li').count(), 0, 'the spell left the stack');
  for (const s of seats) await s.context.close();
});

test('chess: a promotion asks which piece, and the board shows the one chosen', async () => {
  const created = await createTable(server.url, { game: 'chess', seats: ['human', 'human'], seed: 14 });
  const { context, page, frames } = await open(created);
  for (const [from, to] of [['e2', 'e4'], ['d7', 'd5'], ['e4', 'd5'], ['c7', 'c6'], ['d5', 'c6'], ['g8', 'f6'], ['c6', 'b7'], ['b8', 'd7']]) {
    const view = await actingView(page, frames);
    await perform(page, view.legal.find((e) => e.gesture.from.cell === from && e.gesture.to === to));
  }
  await actingView(page, frames);
  await page.click('#board [data-cell="b7"]');
  await page.click('#board [data-cell="a8"]');
  const choices = await page.locator('#picker:not([hidden]) button[data-choice]').allTextContents();
  assert.deepEqual(choices, ['Queen', 'Rook', 'Bishop', 'Knight']);
  await shot(page, 'chess-promotion');
  assert.deepEqual(await violations(page), [], 'WCAG 2.1 AA (axe-core) with this on the screen');
  // Escape puts the choice away and sends nothing; asked again, a Knight.
  const sent = frames.sent.length;
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#picker:not([hidden])').count(), 0);
  assert.equal(frames.sent.length, sent, 'nothing was sent');
  await page.click('#board [data-cell="b7"]');
  await page.click('#board [data-cell="a8"]');
  const at = await ply(page);
  await page.click('#picker button:text-is("Knight")');
  await plyAfter(page, at);
  assert.match(await page.getAttribute('#board [data-cell="a8"]', 'aria-label'), /^a8, White Knight/);
  await context.close();
});
