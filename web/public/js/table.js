// The table page: one WebSocket per seat this browser holds (hotseat is
// several), the board and panels drawn from the latest TableView, clicks
// turned into the actions of `legal` by the gestures (gestures.js).

import * as api from './api.js';
import { drawBoard } from './board.js';
import * as G from './gestures.js';
import { gamePanel, oddsFor } from './panels.js';
import { svg } from './pieces.js';

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * @typedef {{token: string, ws: WebSocket|null, seat: number|null, catalog: any, view: any, at: number, log: string[], history: Map<number, any>, open: boolean}} Conn
 */

const tableId = Number(location.pathname.split('/')[2]);
/** @type {Conn[]} */
const conns = [];
/** @type {Conn|null} */
let shown = null;
/** The place selected by a first click, its destinations and one-click menu. */
/** @type {{place: G.Place, targets: Set<string>, menu: G.Entry[]}|null} */
let sel = null;
/** @type {G.Entry[]|null} */
let picking = null;
let hover = /** @type {string|null} */ (null);
let userFlip = false;
/** While stepping through history: the ply shown and its view. */
/** @type {{ply: number, view: any}|null} */
let past = null;
/** The seat the next player must confirm before their side is shown (hotseat, hidden hands). */
let passTo = /** @type {number|null} */ (null);
let confirmResign = false;
/** Zones the player opened by hand (`zone:owner`). */
const openZones = new Set();
/** @type {{table: number, tokens: string[]}|null} */
let rematch = null;

function tokensFromPage() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const fromHash = (hash.get('t') || '').split(',').filter(Boolean);
  const kept = api.kept()[tableId];
  const fromKept = kept ? Object.values(kept.tokens) : [];
  const all = [...new Set([...fromHash, ...fromKept])];
  if (all.length === 0 && kept && kept.spectator) all.push(kept.spectator);
  return all;
}

function connect(/** @type {Conn} */ c) {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${proto}://${location.host}/api/tables/${tableId}/ws?token=${encodeURIComponent(c.token)}`);
  c.ws = ws;
  ws.addEventListener('open', () => { c.open = true; });
  ws.addEventListener('message', (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    if (msg.type === 'catalog') {
      c.catalog = msg.catalog;
    } else if (msg.type === 'view') {
      // The table's seats and clock travel beside the game's view.
      if (msg.info) msg.view.info = msg.info;
      if (msg.clock) msg.view.clock = msg.clock;
      onView(c, msg.view);
    } else if (msg.type === 'fault') {
      $('fault').textContent = msg.fault.message;
      render();
    } else if (msg.type === 'rematch') {
      onRematch(msg.table, msg.token);
    }
  });
  ws.addEventListener('close', () => {
    c.open = false;
    if (!c.view) $('status').textContent = 'This link opens no seat here: another player may have taken the seat, or the table is gone.';
    else $('fault').textContent = 'The connection to the server closed: reload the page to reconnect.';
  });
}

/** The view on screen, as a key: which seat's, at which ply, what it may do. */
function shownKey() {
  const v = shown && shown.view;
  return v ? `${shown.token}:${v.ply}:${v.legal.length}:${v.outcome ? 'over' : ''}` : '';
}

function onView(/** @type {Conn} */ c, /** @type {any} */ view) {
  const fresh = !c.view || c.view.ply !== view.ply;
  const was = shownKey();
  c.view = view;
  c.at = performance.now();
  c.history.set(view.ply, view);
  if (fresh && view.last) {
    for (const e of view.last.events || []) c.log.unshift(e.text);
    c.log.length = Math.min(c.log.length, 60);
  }
  if (c.seat === null && view.viewer && typeof view.viewer === 'object') {
    c.seat = view.viewer.player;
    api.keep(tableId, { game: view.game, tokens: { [String(c.seat)]: c.token } });
  }
  $('fault').textContent = '';
  choose();
  // A view that changes nothing on screen (another hotseat seat's copy of
  // the same ply, a clock or draw-offer update) keeps the player's
  // selection: a second click is never lost to it.
  if (shownKey() !== was) {
    sel = null;
    picking = null;
    confirmResign = false;
    // Covenant's active piece stays selected through its act: its reachable
    // hexes and targets show without clicking it again.
    const active = shown && shown.view && shown.view.board && shown.view.board.active;
    if (active && active.cell && passTo === null) {
      const step = G.firstClick(shown.view.legal, { at: 'cell', cell: active.cell });
      if (step.kind === 'select') sel = { place: step.place, targets: new Set(step.targets), menu: step.menu };
    }
  }
  render();
}

/** Shows the seat to act among the seats held here; keeps the shown one otherwise. */
function choose() {
  const ready = conns.filter((c) => c.view);
  const acting = ready.find((c) => c.view.legal.length > 0);
  const next = acting || shown || ready.find((c) => c.seat !== null) || ready[0] || null;
  const seats = ready.filter((c) => c.seat !== null);
  const hidden = next && next.view && !('position' in next.view);
  if (next && shown && next !== shown && seats.length > 1 && hidden) passTo = next.seat;
  shown = next;
}

function seatName(/** @type {any} */ view, /** @type {number} */ seat) {
  const s = view.seats.find((/** @type {any} */ x) => x.player === seat);
  return s ? s.name : `Seat ${seat + 1}`;
}

function infoSeat(/** @type {any} */ view, /** @type {number} */ seat) {
  return view.info && view.info.seats ? view.info.seats.find((/** @type {any} */ s) => s.seat === seat) : null;
}

/** "computer:hard" as "computer, hard". */
function kindName(/** @type {string} */ kind) {
  const [who, level] = kind.split(':');
  return level ? `${who}, ${level}` : who;
}

function mine(/** @type {number} */ seat) {
  return conns.some((c) => c.seat === seat);
}

/**
 * How far the board is turned (clockwise degrees from the first seat's
 * view) so that this viewer's own side is at the bottom.
 */
function defaultTurn(/** @type {any} */ catalog, /** @type {any} */ view) {
  const seat = view.viewer && typeof view.viewer === 'object' ? view.viewer.player : null;
  if (seat === null) return 0;
  if (view.game === 'epoch') {
    const s = view.seats.find((/** @type {any} */ x) => x.player === seat);
    const colour = s && s.holdings.find((/** @type {any} */ h) => h.key === 'color');
    return (colour ? colour.value === 'Black' : seat === 1) ? 180 : 0;
  }
  if (view.game === 'lytharia') return (view.board.first !== undefined ? view.board.first !== seat : seat === 1) ? 180 : 0;
  if (view.game === 'warrior') {
    // The edge the seat's King starts nearest is its side of the board.
    const army = ((catalog.extra && catalog.extra.armies) || []).find((/** @type {any} */ a) => a.seat === seat);
    if (army) {
      const { files, ranks } = catalog.board;
      const f = files.indexOf(army.king_square[0]);
      const r = ranks.indexOf(army.king_square.slice(1));
      const edges = [[r, 0], [files.length - 1 - f, 90], [ranks.length - 1 - r, 180], [f, 270]];
      edges.sort((a, b) => a[0] - b[0]);
      return edges[0][1];
    }
  }
  return seat === 1 ? 180 : 0;
}

function status(/** @type {any} */ view) {
  if (view.outcome) {
    const seat = view.viewer && typeof view.viewer === 'object' ? view.viewer.player : null;
    const result = seat !== null && conns.length === 1 ? { win: ' You win.', loss: ' You lose.', draw: ' A draw.' }[view.outcome.results[seat]] || '' : '';
    return `${view.outcome.text}.${result}`;
  }
  const t = view.to_act;
  if (t.kind === 'chance') return 'Chance decides: the server rolls or shuffles…';
  if (t.kind === 'player') {
    const name = seatName(view, t.player);
    const info = infoSeat(view, t.player);
    if (view.legal.length > 0) return conns.length > 1 ? `${name} to play` : `Your turn (${name})`;
    if (info && info.kind && String(info.kind).startsWith('computer')) return `${name} (computer) is thinking…`;
    if (mine(t.player)) return `${name} to play`;
    return `Waiting for ${name}`;
  }
  return '';
}

function clockText(/** @type {number} */ ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function drawSeats(/** @type {Conn} */ c, /** @type {any} */ view) {
  const bar = $('seat-bar');
  bar.replaceChildren();
  for (const s of view.seats) {
    const box = document.createElement('div');
    box.className = 'seat';
    const acting = view.to_act.kind === 'player' && view.to_act.player === s.player;
    if (acting) box.classList.add('acting');
    const info = infoSeat(view, s.player);
    const head = document.createElement('strong');
    head.textContent = s.name + (mine(s.player) ? ' (you)' : '') + (info && info.kind && info.kind !== 'human' ? ` · ${kindName(info.kind)}` : '');
    box.append(head);
    if (view.clock) {
      // A drawn clock face, not an emoji: not every system has the font.
      const clock = document.createElement('span');
      clock.className = 'clock';
      clock.dataset.seat = String(s.player);
      const face = svg('svg', { viewBox: '0 0 16 16', width: 14, height: 14, 'aria-hidden': 'true', class: 'clock-face' });
      face.append(svg('circle', { cx: 8, cy: 9, r: 6, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.8 }));
      face.append(svg('path', { d: 'M8 5.5v3.5l2.5 1.5M6 1.5h4', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6, 'stroke-linecap': 'round' }));
      const time = document.createElement('span');
      time.className = 'time';
      clock.append(face, Object.assign(document.createElement('span'), { className: 'sr-only', textContent: 'time left ' }), time);
      box.append(' ', clock);
    }
    const list = document.createElement('span');
    list.className = 'holdings';
    list.textContent = s.holdings
      .filter((/** @type {any} */ h) => !(Array.isArray(h.value) && h.value.length === 0))
      .map((/** @type {any} */ h) => `${h.label}: ${Array.isArray(h.value) ? h.value.join(' ') : h.value === true ? 'yes' : h.value === false ? 'no' : h.value}`)
      .join(' · ');
    box.append(list);
    bar.append(box);
  }
  tickClocks();
}

function tickClocks() {
  const c = shown;
  if (!c || !c.view || !c.view.clock) return;
  const { remaining_ms: left, running } = c.view.clock;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.clock'))) {
    const seat = Number(el.dataset.seat);
    const ms = (left[seat] || 0) - (running === seat && !past ? performance.now() - c.at : 0);
    /** @type {HTMLElement} */ (el.querySelector('.time')).textContent = clockText(ms);
    el.classList.toggle('running', running === seat);
  }
}
setInterval(tickClocks, 250);

/** The cells the last action touched, to highlight. */
function lastCells(/** @type {any} */ view) {
  const out = new Set();
  for (const e of (view.last && view.last.events) || []) {
    if (e.kind === 'end' || e.kind === 'check') continue;
    for (const cell of e.cells || []) out.add(cell);
  }
  return out;
}

/** The King (or Pope) the last action put in check, from its `check` event. */
function checkedKings(/** @type {any} */ view) {
  const out = new Set();
  for (const e of (view.last && view.last.events) || []) {
    if ((e.kind === 'check' || e.kind === 'end') && e.data && typeof e.data.king === 'string') out.add(e.data.king);
  }
  return out;
}

function send(/** @type {Conn} */ c, /** @type {any} */ message) {
  if (c.ws && c.ws.readyState === WebSocket.OPEN) {
    c.ws.send(JSON.stringify(message));
    // How many messages this page sent: tests wait on it.
    document.body.dataset.sent = String(Number(document.body.dataset.sent || 0) + 1);
  }
}

function act(/** @type {G.Entry} */ entry) {
  if (!shown) return;
  // The ply names the view it was chosen on: the server refuses it as stale
  // if the table moved on meanwhile (another tab, a takeback).
  send(shown, { type: 'action', action: entry.action, ply: shown.view.ply });
  sel = null;
  picking = null;
  render();
}

/** Does what a step of the click algorithm says. */
function apply(/** @type {G.Step} */ step) {
  if (step.kind === 'send') act(step.entry);
  else if (step.kind === 'select') {
    sel = { place: step.place, targets: new Set(step.targets), menu: step.menu };
    picking = null;
    render();
  } else if (step.kind === 'pick') {
    picking = step.entries;
    if (step.place.at !== 'cell' || !sel) sel = { place: step.place, targets: new Set(), menu: [] };
    render();
  }
}

function legalNow() {
  return !past && shown && shown.view && passTo === null ? shown.view.legal : [];
}

function onCell(/** @type {string} */ cell) {
  const legal = legalNow();
  if (legal.length === 0) return;
  if (sel && sel.targets.has(cell)) {
    apply(G.secondClick(legal, sel.place, cell));
    return;
  }
  const here = /** @type {G.Place} */ ({ at: 'cell', cell });
  // A click on the selected piece keeps it selected (Escape or a click
  // elsewhere cancels), so a second click never loses the highlights.
  if (G.clickable(legal).has(G.placeKey(here))) {
    apply(G.firstClick(legal, here));
    return;
  }
  if (sel || picking) {
    sel = null;
    picking = null;
    render();
  }
  // Nothing selected and nothing to do here: the page stays as it is.
}

function onItem(/** @type {G.Place} */ place) {
  const legal = legalNow();
  if (sel && G.placeKey(sel.place) === G.placeKey(place)) {
    sel = null;
    picking = null;
    render();
    return;
  }
  apply(G.firstClick(legal, place));
}

function onHover(/** @type {string|null} */ cell) {
  if (hover === cell) return;
  hover = cell;
  // Only the touched cells and the game's panel change: the board stays.
  const touched = sel && hover ? G.touches(legalNow(), sel.place, hover) : new Set();
  for (const g of document.querySelectorAll('#board [data-cell]')) g.classList.toggle('touched', touched.has(g.getAttribute('data-cell')));
  drawPanel();
}

function drawPanel() {
  const c = shown;
  if (!c || !c.view || !c.catalog) return;
  const view = past ? past.view : c.view;
  $('game-panel').replaceChildren(...gamePanel(c.catalog, view, sel ? sel.place : null, sel ? [...sel.targets] : [], hover, legalNow()));
}

function drawControls(/** @type {any} */ view) {
  const box = $('controls');
  box.replaceChildren();
  const legal = legalNow();
  for (const b of G.buttons(legal)) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = b.label;
    button.dataset.button = b.button;
    button.className = b.entries[0].gesture.kind === 'end-turn' ? 'primary' : '';
    button.addEventListener('click', () => (b.entries.length === 1 ? act(b.entries[0]) : apply({ kind: 'pick', entries: b.entries, place: b.entries[0].gesture.from })));
    box.append(button);
  }
  if (sel && sel.menu.length) {
    for (const e of sel.menu) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = G.entryLabel(e);
      button.addEventListener('click', () => act(e));
      box.append(button);
    }
  }
  void view;
}

function drawPicker(/** @type {any} */ view) {
  const box = $('picker');
  if (!picking) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  box.replaceChildren(Object.assign(document.createElement('p'), { textContent: 'Choose:' }));
  for (const e of picking) {
    const button = document.createElement('button');
    button.type = 'button';
    const odds = oddsFor(view, e);
    button.textContent = G.entryLabel(e) + (odds ? ` (${odds})` : '');
    button.dataset.choice = e.gesture.choice ? e.gesture.choice.id : '';
    button.addEventListener('click', () => act(e));
    box.append(button);
  }
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.textContent = 'Cancel';
  cancel.addEventListener('click', () => { picking = null; sel = null; render(); });
  box.append(cancel);
  const first = /** @type {HTMLElement|null} */ (box.querySelector('button'));
  if (first) first.focus();
}

function drawZones(/** @type {any} */ view) {
  const box = $('zones');
  box.replaceChildren();
  /** @type {HTMLElement} */ (box.parentElement).hidden = !view.zones.some((/** @type {any} */ z) => z.items.length || z.hidden);
  const legal = legalNow();
  const can = G.clickable(legal);
  for (const z of view.zones) {
    if (z.items.length === 0 && !z.hidden) continue;
    // A long list nobody can use now (Covenant's recruits off turn) folds away.
    const div = document.createElement('details');
    div.className = 'zone-box';
    div.dataset.zone = z.zone;
    if (z.owner !== undefined) div.dataset.owner = String(z.owner);
    const usable = z.items.some((/** @type {any} */ it) => can.has(G.placeKey(z.owner === undefined ? { at: 'item', zone: z.zone, item: it.item } : { at: 'item', zone: z.zone, owner: z.owner, item: it.item })));
    div.open = usable || z.items.length <= 6 || openZones.has(`${z.zone}:${z.owner}`);
    div.addEventListener('toggle', () => (div.open ? openZones.add(`${z.zone}:${z.owner}`) : openZones.delete(`${z.zone}:${z.owner}`)));
    const h = document.createElement('summary');
    h.textContent = z.label;
    div.append(h);
    const list = document.createElement('div');
    list.className = 'items';
    for (const it of z.items) {
      /** @type {G.Place} */
      const place = z.owner === undefined ? { at: 'item', zone: z.zone, item: it.item } : { at: 'item', zone: z.zone, owner: z.owner, item: it.item };
      const key = G.placeKey(place);
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'item';
      b.dataset.item = it.item;
      b.textContent = it.label + (it.count > 1 ? ` ×${it.count}` : '');
      if (it.count === 0) b.classList.add('none');
      const on = can.has(key);
      b.disabled = !on;
      if (sel && G.placeKey(sel.place) === key) b.setAttribute('aria-pressed', 'true');
      b.addEventListener('click', () => onItem(place));
      list.append(b);
    }
    if (z.hidden) {
      const s = document.createElement('span');
      s.className = 'hidden-items';
      s.textContent = `${z.hidden} face down`;
      list.append(s);
    }
    div.append(list);
    box.append(div);
  }
}

function drawMoves(/** @type {any} */ view) {
  const list = $('moves');
  list.replaceChildren();
  const current = past ? past.ply : view.ply;
  for (const m of view.moves) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = `${m.player !== undefined ? `${seatName(view, m.player)}: ` : ''}${m.notation}`;
    b.dataset.ply = String(m.ply);
    if (m.ply === current) b.setAttribute('aria-current', 'step');
    b.addEventListener('click', () => stepTo(m.ply));
    li.append(b);
    list.append(li);
  }
  const cur = list.querySelector('[aria-current]');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
  const note = $('history-note');
  note.hidden = !past;
  note.textContent = past ? `Showing the position after move ${past.ply} of ${view.ply} (read only).` : '';
}

function drawTableActions(/** @type {any} */ view) {
  const box = $('table-actions');
  box.replaceChildren();
  const names = { resign: 'Resign', 'offer-draw': 'Offer a draw', 'accept-draw': 'Accept the draw', 'decline-draw': 'Decline the draw', takeback: 'Take back', rematch: 'Rematch' };
  if (view.draw_offer !== undefined) {
    const p = document.createElement('p');
    const team = view.seats.find((/** @type {any} */ s) => s.team === view.draw_offer);
    p.textContent = `${team ? team.team_name : 'A player'} offers a draw.`;
    box.append(p);
  }
  for (const id of view.table_actions) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.tableAction = id;
    b.textContent = id === 'resign' && confirmResign ? 'Really resign?' : names[id] || id;
    b.addEventListener('click', () => {
      if (id === 'resign' && !confirmResign) {
        confirmResign = true;
        render();
        return;
      }
      if (shown) send(shown, { type: 'table', action: id });
    });
    box.append(b);
  }
}

function drawInvites() {
  const box = $('invites');
  const kept = api.kept()[tableId];
  box.replaceChildren();
  if (!kept) return;
  const links = [...(kept.invites || []).map((i) => ({ name: shown && shown.view ? `Invite for ${seatName(shown.view, i.seat)}` : `Invite for seat ${i.seat + 1}`, token: i.token }))];
  if (kept.spectator) links.push({ name: 'Link to watch', token: kept.spectator });
  for (const l of links) {
    const url = api.tableUrl(tableId, [l.token]);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = `Copy: ${l.name}`;
    b.addEventListener('click', () => api.copyText(url, b));
    box.append(b);
  }
}

function render() {
  const c = shown;
  if (!c || !c.view || !c.catalog) return;
  const view = past ? past.view : c.view;
  const catalog = c.catalog;
  // A tab in the background says when it is this screen's turn.
  document.title = `${legalNow().length ? '● Your move: ' : ''}${catalog.title}, table ${tableId}`;
  $('title').textContent = `${catalog.title}, table ${tableId}`;
  /** @type {HTMLAnchorElement} */ ($('rules-link')).href = `/rules/${view.game}`;
  $('status').textContent = past ? `After move ${past.ply}` : status(view);
  $('status').classList.toggle('over', !!view.outcome && !past);
  drawSeats(c, view);
  // For tests and styles: whose turn it is on this screen.
  document.body.dataset.turn = legalNow().length > 0 ? 'mine' : view.outcome ? 'over' : 'wait';
  document.body.dataset.ply = String(c.view.ply);
  const pass = $('pass');
  if (passTo !== null) {
    // Nothing of either side's hidden things stays on the page meanwhile.
    pass.hidden = false;
    $('pass-text').textContent = `${seatName(c.view, passTo)} plays next. Pass the device, then show the side.`;
    for (const id of ['board', 'zones', 'log', 'game-panel', 'picker', 'controls', 'moves']) $(id).replaceChildren();
    /** @type {HTMLButtonElement} */ ($('pass-go')).focus();
    return;
  } else {
    pass.hidden = true;
    const legal = legalNow();
    const touched = sel && hover ? G.touches(legal, sel.place, hover) : new Set();
    const board = drawBoard({
      catalog, view, turn: (defaultTurn(catalog, view) + (userFlip ? 180 : 0)) % 360,
      selected: sel && sel.place.at === 'cell' ? sel.place.cell : null,
      targets: sel ? sel.targets : new Set(), touched, last: lastCells(view), check: checkedKings(view),
      clickable: G.clickable(legal), readOnly: !!past || legal.length === 0,
      onCell, onHover,
    });
    const box = $('board');
    const focused = document.activeElement && document.activeElement.getAttribute('data-cell');
    box.replaceChildren(board);
    if (focused) {
      const again = /** @type {HTMLElement|null} */ (box.querySelector(`[data-cell="${focused}"]`));
      if (again) again.focus();
    }
  }
  drawControls(view);
  drawPicker(view);
  drawZones(view);
  drawMoves(c.view);
  const log = $('log');
  log.replaceChildren(...c.log.slice(0, 30).map((t) => Object.assign(document.createElement('li'), { textContent: t })));
  drawTableActions(past ? { ...view, table_actions: [] } : view);
  drawInvites();
  drawPanel();
}

async function stepTo(/** @type {number} */ ply) {
  const c = shown;
  if (!c || !c.view) return;
  if (ply >= c.view.ply) {
    past = null;
    render();
    return;
  }
  if (ply < 0) ply = 0;
  let view = null;
  try {
    const r = await fetch(`/api/tables/${tableId}/views?token=${encodeURIComponent(c.token)}&ply=${ply}`);
    if (r.ok) view = (await r.json()).view;
  } catch {
    view = null;
  }
  if (!view) view = c.history.get(ply) || null;
  if (!view) {
    $('fault').textContent = 'That position is not available in this browser.';
    return;
  }
  past = { ply, view };
  sel = null;
  picking = null;
  render();
}

function onRematch(/** @type {number} */ table, /** @type {string} */ token) {
  if (!rematch || rematch.table !== table) rematch = { table, tokens: [] };
  rematch.tokens.push(token);
  const game = shown && shown.view ? shown.view.game : '';
  api.keep(table, { game, tokens: Object.fromEntries(rematch.tokens.map((t, i) => [`r${i}`, t])) });
  const held = conns.filter((c) => c.seat !== null).length;
  if (rematch.tokens.length >= held) location.href = api.tableUrl(table, rematch.tokens);
}

async function exportRecord() {
  const c = shown;
  if (!c || !c.view) return;
  let text = '';
  try {
    const r = await fetch(`/api/tables/${tableId}/record?token=${encodeURIComponent(c.token)}`);
    if (r.ok) text = await r.text();
  } catch {
    text = '';
  }
  if (!text) {
    // An older server: the move list as this seat knows it.
    text = `${c.catalog.title}, table ${tableId}\n${c.view.position ? `Position: ${c.view.position}\n` : ''}${c.view.moves.map((/** @type {any} */ m) => `${m.ply}. ${m.notation}`).join('\n')}\n`;
  }
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  a.download = `tabula-${c.view.game}-${tableId}.txt`;
  a.click();
  URL.revokeObjectURL(a.href);
}

function main() {
  const tokens = tokensFromPage();
  if (!tableId || tokens.length === 0) {
    $('status').textContent = 'This page needs a table link. Start a game from the lobby.';
    return;
  }
  for (const token of tokens) {
    const c = { token, ws: null, seat: null, catalog: null, view: null, at: 0, log: [], history: new Map(), open: false };
    conns.push(c);
    connect(c);
  }
  $('flip').addEventListener('click', () => { userFlip = !userFlip; render(); });
  $('export').addEventListener('click', exportRecord);
  $('first').addEventListener('click', () => stepTo(0));
  $('back').addEventListener('click', () => shown && shown.view && stepTo((past ? past.ply : shown.view.ply) - 1));
  $('forward').addEventListener('click', () => shown && shown.view && stepTo((past ? past.ply : shown.view.ply) + 1));
  $('live').addEventListener('click', () => { past = null; render(); });
  $('pass-go').addEventListener('click', () => { passTo = null; render(); });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && (sel || picking)) {
      sel = null;
      picking = null;
      render();
    }
    // Arrow keys step through the history, unless a control has the focus.
    const onControl = document.activeElement && ['INPUT', 'SELECT', 'TEXTAREA'].includes(document.activeElement.tagName);
    if (!onControl && shown && shown.view && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
      const at = past ? past.ply : shown.view.ply;
      stepTo(at + (e.key === 'ArrowLeft' ? -1 : 1));
    }
  });
}

main();
