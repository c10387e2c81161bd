// Tables of several browsers, and the games' own panels: four-seat Warrior
// in four contexts, Lytharia in two contexts that never see the other's
// hand, Skirmish odds before a capture, and a phone-sized page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suite, createTable, recordFrames, tableReady, ply, clickSomething, shot, violations } from './harness.mjs';

const { server, browser } = suite();

async function openSeat(url, table, token, viewport = { width: 1100, height: 850 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const frames = recordFrames(page);
  await page.goto(`${url}/t/${table}#t=${token}`);
  await tableReady(page);
  return { context, page, frames };
}

/** The page of `pages` whose seat is to act. */
async function acting(pages) {
  for (;;) {
    for (const p of pages) {
      if ((await p.page.getAttribute('body', 'data-turn')) === 'mine') return p;
    }
    await pages[0].page.waitForTimeout(50);
  }
}

test('four-seat Warrior Chess in four browser contexts', async () => {
  const created = await createTable(server.url, { game: 'warrior', options: { players: '4' }, seats: ['human', 'human', 'human', 'human'], seed: 4 });
  const pages = [];
  for (const s of created.seats) pages.push(await openSeat(server.url, created.table, s.link_token));
  let moved = new Set();
  for (let i = 0; i < 12; i++) {
    const p = await acting(pages);
    const seat = JSON.parse(p.frames.received.filter((f) => f.includes('"type":"view"')).at(-1)).view.viewer.player;
    moved.add(seat);
    const before = await ply(p.page);
    const end = p.page.locator('#controls button.primary');
    if (i % 2 === 1 && (await end.count())) {
      await end.click();
      await p.page.waitForFunction((b) => Number(document.body.dataset.ply) > b, before);
    } else {
      await clickSomething(p.page);
    }
    // Every page follows every action.
    const now = await ply(p.page);
    for (const q of pages) await q.page.waitForFunction((n) => Number(document.body.dataset.ply) === n, now);
  }
  assert.ok(moved.size >= 3, `several seats acted: ${[...moved]}`);
  for (const [i, p] of pages.entries()) await shot(p.page, `warrior-four-seat-${i}`);
  for (const p of pages) await p.context.close();
});

test('four-seat Warrior: every seat sees its own King at the bottom, and flip turns the board', async () => {
  const created = await createTable(server.url, { game: 'warrior', options: { players: '4' }, seats: ['human', 'human', 'human', 'human'], seed: 4 });
  /** The screen box of a square. */
  const box = async (page, cell) => page.locator(`#board [data-cell="${cell}"]`).boundingBox();
  // From the catalog the page was sent: each army's seat and King's square.
  for (const s of created.seats) {
    const { context, page, frames } = await openSeat(server.url, created.table, s.link_token);
    const catalog = JSON.parse(frames.received.find((f) => f.includes('"type":"catalog"'))).catalog;
    const seat = JSON.parse(frames.received.find((f) => f.includes('"type":"view"'))).view.viewer.player;
    const army = catalog.extra.armies.find((a) => a.seat === seat);
    const king = army.king_square;
    assert.match(await page.getAttribute(`#board [data-cell="${king}"]`, 'aria-label'), new RegExp(`${army.name} King`));
    const board = await page.locator('#board svg').boundingBox();
    const bottom = board.y + board.height;
    const square = board.height / 8;
    const k = await box(page, king);
    assert.ok(Math.abs(k.y + k.height - bottom) < 2, `${army.name}'s King (${king}) is on the bottom row`);
    // The whole home edge lies along the bottom, read left to right as the
    // seat sees it from its side of the table.
    const edge = { Red: ['a1', 'h1'], Green: ['h8', 'a8'], Blue: ['a8', 'a1'], Yellow: ['h1', 'h8'] }[army.name];
    const [left, right] = [await box(page, edge[0]), await box(page, edge[1])];
    assert.ok(Math.abs(left.y + left.height - bottom) < 2 && Math.abs(right.y + right.height - bottom) < 2, `${army.name}: ${edge.join('-')} along the bottom`);
    assert.ok(Math.abs(left.x - board.x) < 2 && Math.abs(right.x + right.width - (board.x + board.width)) < 2, `${army.name}: ${edge[0]} bottom left, ${edge[1]} bottom right`);
    await shot(page, `warrior-four-seat-side-${army.name.toLowerCase()}`);
    if (army.name === 'Blue') assert.deepEqual(await violations(page), [], 'WCAG 2.1 AA (axe-core) on a turned board');
    // Flip: the King goes to the top row; flip again: back at the bottom.
    await page.click('#flip');
    // (The click may scroll the page: measure the board again.)
    const top = (await page.locator('#board svg').boundingBox()).y;
    const flipped = await box(page, king);
    assert.ok(Math.abs(flipped.y - top) < 2 && flipped.height < square + 2, `flipped, ${army.name}'s King is on the top row`);
    await page.click('#flip');
    const again = await page.locator('#board svg').boundingBox();
    const back = await box(page, king);
    assert.ok(Math.abs(back.y + back.height - (again.y + again.height)) < 2, 'flipped back, the King is at the bottom again');
    await context.close();
  }
});

test('Lytharia in two contexts: neither page nor its frames hold the other hand', async () => {
  const created = await createTable(server.url, { game: 'lytharia', seats: ['human', 'human'], seed: 11 });
  const pages = [];
  for (const s of created.seats) pages.push(await openSeat(server.url, created.table, s.link_token));
  for (let i = 0; i < 14; i++) {
    const p = await acting(pages);
    await clickSomething(p.page, { pick: i });
    const now = await ply(p.page);
    for (const q of pages) await q.page.waitForFunction((n) => Number(document.body.dataset.ply) >= n, now);
  }
  const catalogFrame = pages[0].frames.received.find((f) => f.includes('"type":"catalog"'));
  const catalog = JSON.parse(catalogFrame).catalog;
  const names = new Map(catalog.extra.cards.map((c) => [c.id, c.name]));
  const views = (p) => p.frames.received.map((f) => JSON.parse(f)).filter((m) => m.type === 'view').map((m) => m.view);
  /** The cards in a seat's hand, from its own views. */
  const hand = (p, seat) => {
    const ids = new Set();
    for (const v of views(p)) for (const z of v.zones) if (z.owner === seat && z.zone === 'hand') for (const it of z.items) ids.add(it.item);
    return ids;
  };
  /** Cards a seat may know of: its own, the public zones, the armies' lists. */
  const known = (p, seat) => {
    const ids = new Set();
    for (const v of views(p)) {
      for (const z of v.zones) if (z.owner === seat || ['crypt', 'nether', 'enchants', 'duel-played', 'promotion'].includes(z.zone)) for (const it of z.items) ids.add(it.item);
      for (const t of v.board.pieces) if (t.owner === seat || t.face_up) ids.add(t.piece);
      for (const side of v.board.sides) for (const c of side.army || []) ids.add(c);
      for (const e of (v.last && v.last.events) || []) for (const c of (e.data && e.data.cards) || []) ids.add(c);
    }
    return ids;
  };
  let hiddenTroops = 0;
  let secrets = 0;
  for (const [me, other] of [[0, 1], [1, 0]]) {
    // The other seat's face-down troops reach this seat as their roles only.
    for (const v of views(pages[me])) {
      for (const t of v.board.pieces) {
        if (t.owner !== other || t.face_up) continue;
        hiddenTroops++;
        assert.ok(['K', 'Q', 'R', 'KN', 'B', 'P'].includes(t.piece) && t.card === undefined, `seat ${me} sees ${t.cell} as ${t.piece}`);
      }
    }
    const labels = await pages[me].page.$$eval('#board [data-cell]', (cells) => cells.map((c) => c.getAttribute('aria-label')));
    assert.ok(labels.some((l) => l.includes('face-down')), `seat ${me}'s board shows the other's troops face down`);
    // Its hand: no card of it in any frame (but the catalog) or on the page.
    const secret = [...hand(pages[other], other)].filter((id) => !known(pages[me], me).has(id));
    const frames = pages[me].frames.received.filter((f) => !f.includes('"type":"catalog"'));
    const text = await pages[me].page.evaluate(() => document.body.innerText + document.body.innerHTML);
    secrets += secret.length;
    for (const id of secret) {
      assert.ok(!frames.some((f) => f.includes(`"${id}"`)), `seat ${me}'s frames never name ${id}`);
      assert.ok(!text.includes(names.get(id) || id), `seat ${me}'s page never shows ${names.get(id)}`);
    }
  }
  assert.ok(hiddenTroops > 0, 'there were face-down troops to hide');
  assert.ok(secrets > 0, 'there were cards in hand to hide');
  for (const [i, p] of pages.entries()) await shot(p.page, `lytharia-seat-${i}`);
  for (const p of pages) await p.context.close();
});

test('Skirmish shows the odds of a capture before it is made', async () => {
  const created = await createTable(server.url, { game: 'skirmish', seats: ['human', 'human'], seed: 3 });
  const tokens = created.seats.map((s) => s.link_token).join(',');
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/t/${created.table}#t=${tokens}`);
  await tableReady(page);
  const move = async (from, to) => {
    // Hotseat: wait until the seat to move is the one shown.
    await page.waitForSelector(`#board [data-cell="${from}"].active`);
    const before = await ply(page);
    await page.click(`#board [data-cell="${from}"]`);
    await page.click(`#board [data-cell="${to}"]`);
    await page.waitForFunction((b) => Number(document.body.dataset.ply) > b, before);
    // A turn may need ending after the movement.
    const end = page.locator('#controls button[data-button="end-turn"]');
    if ((await end.count()) && (await page.getAttribute('body', 'data-turn')) === 'mine') {
      const p = await ply(page);
      await end.click();
      await page.waitForFunction((b) => Number(document.body.dataset.ply) > b, p);
    }
  };
  await move('e2', 'e4');
  await move('d7', 'd5');
  await page.click('#board [data-cell="e4"]');
  await page.waitForSelector('.odds li');
  const odds = await page.textContent('.odds');
  assert.match(odds, /e4xd5: attack 1 \+ bonus 1 against defence 1: wins 58% \(7\/12\)/);
  await shot(page, 'skirmish-odds');
  await context.close();
});

test('a phone-sized table page', async () => {
  const created = await createTable(server.url, { game: 'chess', seats: ['human', 'computer'], seed: 1 });
  const p = await openSeat(server.url, created.table, created.seats[0].link_token, { width: 360, height: 740 });
  const width = await p.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `no sideways scrolling (${width}px)`);
  const box = await p.page.locator('#board svg').boundingBox();
  assert.ok(box && box.width >= 300, 'the board fills the screen width');
  // Every control and every cell has an accessible name.
  const unnamed = await p.page.$$eval('button, select, input, a, [role="button"], #board [data-cell]', (els) =>
    els.filter((e) => !(e.getAttribute('aria-label') || e.textContent.trim() || (e.id && document.querySelector(`label[for="${e.id}"]`)))).length);
  assert.equal(unnamed, 0, 'no control without a name');
  await shot(p.page, 'phone-chess');
  await p.page.goto(`${server.url}/`);
  await p.page.waitForSelector('body[data-ready]');
  const lobbyWidth = await p.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(lobbyWidth <= 360, `the lobby fits too (${lobbyWidth}px)`);
  await shot(p.page, 'phone-lobby');
  await p.context.close();
});

/**
 * A Covenant crossroads table in hotseat, both seats held by one page, and
 * a march toward the foe until a move of `kinds` from a piece's cell is
 * legal: each turn the move that closes on the nearest foe, else the
 * activation of the piece nearest one, else the end of the phase. Resolves
 * to the page, its frames, that entry and the view that offered it.
 */
async function covenantUntil(kinds) {
  const created = await createTable(server.url, { game: 'covenant', options: { scenario: 'crossroads' }, seats: ['human', 'human'], seed: 5 });
  const tokens = created.seats.map((s) => s.link_token).join(',');
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const frames = recordFrames(page);
  await page.goto(`${server.url}/t/${created.table}#t=${tokens}`);
  await tableReady(page);
  const catalog = JSON.parse(frames.received.find((f) => f.includes('"type":"catalog"'))).catalog;
  const at = new Map(catalog.board.cells.map((c) => [c.cell, c]));
  // Hex distance in offset columns (odd columns half a hex up), for the test's own steering.
  const cube = (c) => { const x = c.col; const z = c.row - (x + (x & 1)) / 2; return [x, z, -x - z]; };
  const dist = (a, b) => { const p = cube(at.get(a)); const q = cube(at.get(b)); return Math.max(...p.map((v, i) => Math.abs(v - q[i]))); };
  const views = () => frames.received.map((f) => JSON.parse(f)).filter((m) => m.type === 'view').map((m) => m.view);
  const current = () => views().reverse().find((v) => v.legal.length) || null;
  for (let i = 0; i < 200; i++) {
    await page.waitForFunction(() => document.body.dataset.turn === 'mine');
    const view = current();
    const legal = view.legal;
    const before = Number(await page.getAttribute('body', 'data-ply'));
    const found = legal.find((e) => kinds.includes(e.gesture.kind) && e.gesture.from.at === 'cell');
    if (found) return { context, page, views, found, view };
    const me = view.to_act.player;
    const foes = view.board.pieces.filter((p) => p.owner !== me).map((p) => p.cell);
    const near = (cell) => Math.min(...foes.map((f) => dist(cell, f)));
    const moves = legal.filter((e) => e.gesture.kind === 'move' && e.gesture.to);
    const activations = legal.filter((e) => e.gesture.kind === 'activate' && !e.gesture.choice);
    let entry;
    if (moves.length) {
      moves.sort((a, b) => near(a.gesture.to) - near(b.gesture.to));
      entry = near(moves[0].gesture.to) < near(moves[0].gesture.from.cell) ? moves[0] : null;
    } else if (activations.length) {
      // The piece nearest the foe that has not acted.
      activations.sort((a, b) => near(a.gesture.from.cell) - near(b.gesture.from.cell));
      entry = activations[0];
    }
    if (entry) {
      await page.click(`#board [data-cell="${entry.gesture.from.cell}"]`);
      if (entry.gesture.to) await page.click(`#board [data-cell="${entry.gesture.to}"]`);
      if (await page.locator('#picker:not([hidden]) button').count()) await page.locator('#picker:not([hidden]) button').first().click();
    } else {
      const end = legal.find((e) => e.gesture.from.at === 'button' && e.gesture.kind === 'end-phase') || legal.find((e) => e.gesture.from.at === 'button');
      await page.click(`#controls button[data-button="${end.gesture.from.button}"]`);
    }
    await page.waitForFunction((b) => Number(document.body.dataset.ply) > b, before);
  }
  assert.fail(`no ${kinds.join(' or ')} became possible`);
}

test('Covenant: before an attack the page shows what it would be', async () => {
  const { context, page, found } = await covenantUntil(['attack', 'shoot', 'holy', 'sweep']);
  await page.click(`#board [data-cell="${found.gesture.from.cell}"]`);
  await page.hover(`#board [data-cell="${found.gesture.to}"]`);
  const preview = await page.textContent('[data-preview="attack"]');
  assert.match(preview, new RegExp(`Attack on ${found.gesture.to}: attack \\d+ against defence \\d+; the target has \\d+ of \\d+ Blood`));
  await shot(page, 'covenant-attack');
  await context.close();
});

test('Covenant: an attack showing its predicted damage loses the foe that much Blood', async () => {
  // A melee blow is clicked, and compared with the engine's forecast of it.
  const { context, page, views, found, view } = await covenantUntil(['attack']);
  const target = found.gesture.to;
  const foe = view.board.pieces.find((p) => p.cell === target);
  await page.click(`#board [data-cell="${found.gesture.from.cell}"]`);
  await page.hover(`#board [data-cell="${target}"]`);
  // What the page shows: the number on the target hex and the panel's line.
  const item = page.locator(`[data-forecast="${found.canonical}"]`);
  await item.waitFor();
  const shown = Number(await item.getAttribute('data-damage'));
  assert.match(await item.textContent(), new RegExp(`^Melee blow on ${target}: ${shown} damage`));
  assert.equal(Number(await page.getAttribute(`#board [data-cell="${target}"] .forecast`, 'data-damage')), shown);
  assert.match(await page.getAttribute(`#board [data-cell="${target}"]`, 'aria-label'), new RegExp(`would deal ${shown} damage`));
  await shot(page, 'covenant-forecast');
  const before = Number(await page.getAttribute('body', 'data-ply'));
  await page.click(`#board [data-cell="${target}"]`);
  const pick = page.locator(`#picker:not([hidden]) button[data-choice="${found.gesture.choice ? found.gesture.choice.id : ''}"]`);
  if (found.gesture.choice) await pick.click();
  await page.waitForFunction((b) => Number(document.body.dataset.ply) > b, before);
  await page.waitForFunction((n) => document.body.dataset.ply === String(n), before + 1);
  const after = views().find((v) => v.ply === before + 1) || views().pop();
  const left = after.board.pieces.find((p) => p.cell === target && p.owner === foe.owner);
  assert.equal(foe.blood - (left ? left.blood : 0), shown, 'the Blood lost is the damage shown');
  await context.close();
});

test('chess: history stepping, takeback, resignation and rematch by clicking', async () => {
  const created = await createTable(server.url, { game: 'chess', seats: ['human', 'computer:easy'], seed: 2 });
  const p = await openSeat(server.url, created.table, created.seats[0].link_token);
  const page = p.page;
  const label = (cell) => page.getAttribute(`#board [data-cell="${cell}"]`, 'aria-label');
  // By keyboard: focus the pawn, Enter, focus its square, Enter.
  await page.focus('#board [data-cell="e2"]');
  await page.keyboard.press('Enter');
  await page.focus('#board [data-cell="e4"]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => Number(document.body.dataset.ply) >= 2 && document.body.dataset.turn === 'mine');
  assert.match(await label('e4'), /White Pawn/);
  // Back to the start: the old position, read only.
  await page.click('#first');
  await page.waitForSelector('#history-note:not([hidden])');
  assert.match(await label('e2'), /White Pawn/);
  assert.equal(await page.locator('#board .cell.active').count(), 0, 'nothing to click in the past');
  await page.click('#live');
  await page.waitForSelector('#history-note[hidden]', { state: 'attached' });
  assert.match(await label('e4'), /White Pawn/);
  // Takeback: the game goes back to before my move.
  await page.click('[data-table-action="takeback"]');
  await page.waitForFunction(() => Number(document.body.dataset.ply) === 0);
  assert.match(await label('e2'), /White Pawn/);
  // Resign (asked twice), then a rematch opens the new table.
  await page.click('[data-table-action="resign"]');
  await page.click('[data-table-action="resign"]');
  await page.waitForFunction(() => document.body.dataset.turn === 'over');
  assert.match(await page.textContent('#status'), /resign/i);
  await page.click('[data-table-action="rematch"]');
  await page.waitForURL((u) => !u.pathname.endsWith(`/t/${created.table}`));
  await tableReady(page);
  await shot(page, 'chess-rematch');
  await p.context.close();
});

test('the lobby and a rules page', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/`);
  await page.waitForSelector('body[data-ready]');
  assert.equal(await page.locator('.game-card').count(), 6);
  await page.click('.game-card[data-game="warrior"]');
  await page.selectOption('#opt-players', '4');
  await page.waitForFunction(() => document.querySelectorAll('#seats select').length === 4);
  await shot(page, 'lobby');
  await page.goto(`${server.url}/rules/covenant`);
  await page.waitForSelector('#rules h2');
  assert.match(await page.textContent('#rules h2'), /Covenant Chess/);
  assert.match(await page.textContent('#rules'), /damage is Attack − Defence \+ 4/);
  assert.ok(await page.locator('#rules details.readings').count(), "the project's readings are linked below");
  await shot(page, 'rules-covenant');
  await context.close();
});

test('a friend by link: the lobby gives the invitation, the friend opens it and plays', async () => {
  const mine = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await mine.newPage();
  await page.goto(`${server.url}/`);
  await page.waitForSelector('body[data-ready]');
  await page.waitForSelector('#seat-1');
  await page.selectOption('#seat-1', 'friend');
  await page.selectOption('#clock', '300+0');
  await page.click('#create');
  const link = await page.inputValue('#invite-1');
  assert.match(link, /\/t\/\d+#t=[0-9a-f]{32}$/);
  await page.click('#invite a.button');
  await tableReady(page);
  const friend = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const other = await friend.newPage();
  await other.goto(link);
  await tableReady(other);
  assert.match(await page.textContent('.clock .time'), /^[45]:\d\d$/);
  // White moves on one screen; Black sees it and answers on the other.
  await page.click('#board [data-cell="d2"]');
  await page.click('#board [data-cell="d4"]');
  await other.waitForFunction(() => document.body.dataset.turn === 'mine');
  assert.match(await other.getAttribute('#board [data-cell="d4"]', 'aria-label'), /White Pawn/);
  // The move that just came in is highlighted, where it started and ended.
  assert.equal(await other.locator('#board [data-cell="d2"] .hl.last, #board [data-cell="d4"] .hl.last').count(), 2, 'the last move is highlighted');
  assert.equal(await other.locator('#board .hl.last').count(), 2, 'and nothing else');
  await other.click('#board [data-cell="d7"]');
  await other.click('#board [data-cell="d5"]');
  await page.waitForFunction(() => document.body.dataset.turn === 'mine' && Number(document.body.dataset.ply) === 2);
  assert.match(await page.getAttribute('#board [data-cell="d5"]', 'aria-label'), /Black Pawn/);
  await shot(other, 'friend-black');
  await mine.close();
  await friend.close();
});

test('hotseat Lytharia: the board is hidden between the two players', async () => {
  const created = await createTable(server.url, { game: 'lytharia', seats: ['human', 'human'], seed: 11 });
  const tokens = created.seats.map((s) => s.link_token).join(',');
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/t/${created.table}#t=${tokens}`);
  await tableReady(page);
  let passes = 0;
  for (let i = 0; i < 12; i++) {
    // Both seats' views must be in: the next seat's shows the pass screen.
    await page.waitForFunction(() => !document.getElementById('pass').hidden || document.body.dataset.turn === 'mine');
    if (await page.isVisible('#pass')) {
      passes++;
      // While the device passes, neither side's board or hand is on the screen.
      assert.equal(await page.locator('#board svg').count(), 0, 'no board behind the pass screen');
      assert.equal(await page.locator('#zones .item, #log li, #moves li').count(), 0, 'no hand, log or moves behind it');
      await shot(page, 'lytharia-pass');
      if (passes === 1) assert.deepEqual(await violations(page), [], 'WCAG 2.1 AA (axe-core) on the pass screen');
      await page.click('#pass-go');
    }
    await clickSomething(page, { pick: i });
  }
  assert.ok(passes > 0, 'the device was passed');
  await context.close();
});

test('a Battle Duel says its round, its score and how many troops are picked', async () => {
  const created = await createTable(server.url, { game: 'lytharia', options: { mode: 'duel' }, seats: ['human', 'computer:easy'], seed: 3 });
  const p = await openSeat(server.url, created.table, created.seats[0].link_token);
  const page = p.page;
  const panel = () => page.textContent('#game-panel');
  await page.waitForFunction(() => document.body.dataset.turn === 'mine');
  assert.match(await panel(), /each side picks 7 troops/);
  assert.match(await panel(), /Picked: Player 1 0 of 7/);
  await clickSomething(page);
  await page.waitForFunction(() => /Player 1 1 of 7/.test(document.getElementById('game-panel').textContent));
  // Play on, clicking whatever is offered, until the first round is decided.
  for (let i = 0; i < 120 && !/Round 1 (won by|tied)/.test(await panel()); i++) {
    await page.waitForFunction(() => ['mine', 'over'].includes(document.body.dataset.turn));
    if (/Round 1 (won by|tied)/.test(await panel())) break;
    await clickSomething(page, { pick: i });
  }
  const text = await panel();
  assert.match(text, /Battle Duel, round 2\. Score: Player 1 [01], Player 2 [01] \(4 wins take the match\)\./);
  assert.match(text, /Round 1 (won by Player [12]|tied)\./);
  await shot(page, 'lytharia-duel');
  await p.context.close();
});

test('the page is served with its content types, revalidated by ETag', async () => {
  const get = (path, headers = {}) => fetch(`${server.url}${path}`, { headers });
  for (const [path, type] of [['/', 'text/html'], ['/t/1', 'text/html'], ['/rules/epoch', 'text/html'],
    ['/rules/epoch.md', 'text/markdown'], ['/static/js/table.js', 'text/javascript'], ['/static/app.css', 'text/css'],
    ['/static/favicon.svg', 'image/svg+xml'], ['/static/guide/chess.md', 'text/markdown']]) {
    const r = await get(path);
    assert.equal(r.status, 200, path);
    assert.ok(r.headers.get('content-type').startsWith(type), `${path}: ${r.headers.get('content-type')}`);
    assert.equal(r.headers.get('cache-control'), 'no-cache', path);
  }
  const first = await get('/static/app.css');
  const again = await get('/static/app.css', { 'if-none-match': first.headers.get('etag') });
  assert.equal(again.status, 304);
  for (const path of ['/static/nope.js', '/static/index.html', '/rules/go', '/static/..%2f..%2fCargo.toml']) {
    assert.equal((await get(path)).status, 404, path);
  }
});

// Chess only in CI: a clicked Skirmish game runs a minute and a half, too
// long for it. `TABULA_WHOLE_GAMES=chess,epoch,...` (or `all`) plays others
// to their end as well: a benchmark-length run, figures in the note.
const wholeGames = (process.env.TABULA_WHOLE_GAMES ?? 'chess').replace(
  /^all$/,
  'chess,epoch,skirmish,warrior,covenant,lytharia',
);
for (const game of wholeGames.split(',').filter(Boolean)) {
  test(`${game}: a whole game against the computer, clicked to its end`, async () => {
    const created = await createTable(server.url, { game, seats: ['human', 'computer:easy'], seed: 9 });
    const p = await openSeat(server.url, created.table, created.seats[0].link_token);
    const page = p.page;
    for (let i = 0; i < 3000; i++) {
      await page.waitForFunction(() => document.body.dataset.turn !== 'wait', null, { timeout: 30000 });
      if ((await page.getAttribute('body', 'data-turn')) === 'over') break;
      await clickSomething(page, { pick: i * 7 });
    }
    assert.equal(await page.getAttribute('body', 'data-turn'), 'over', 'the game ended');
    const status = await page.textContent('#status.over');
    assert.match(status, /wins|draw/i, `the result in words: ${status}`);
    assert.ok(!(await page.textContent('main')).includes('Active:'), 'no piece is active once over');
    await shot(page, `${game}-over`);
    await p.context.close();
  });
}
