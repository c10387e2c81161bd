// The lobby: the six games, the new-table form and this player's tables.

import * as api from './api.js';
import { drawPiece, svg } from './pieces.js';

/** What makes each game different, in two lines, and the piece on its card. */
const ABOUT = {
  chess: ['The classic game on 8×8 by the FIDE rules.', 'Checkmate the King; stalemate, repetition and fifty moves draw.', 'K'],
  epoch: ['A 13×13 board with Mages, Assassins, Heralds and a dormant Emperor.', 'The Marshal’s command zone enhances pieces; protect the Pope.', 'marshal'],
  skirmish: ['Chess where a capture is a fight decided by dice.', 'See the odds before you attack; a defender may take the attacker’s square.', 'N'],
  warrior: ['Buy weapons and arm your Warriors: they move as the weapons they carry.', 'Two players, or four in two teams.', 'warrior'],
  covenant: ['A battle on a hex field: pieces with Blood, attack and defence.', 'Hold the Holy Cities for Grails and recruit an army.', 'Ki'],
  lytharia: ['A card game on a chess board: troops start face down.', 'Cast spells with mana, equip weapons, charge the obelisk.', 'Q'],
};

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @type {api.GameInfo[]} */
let games = [];
let chosen = 'chess';
/** @type {api.SeatInfo[]} */
let seatList = [];

function emblem(/** @type {string} */ game) {
  const box = svg('svg', { viewBox: '0 0 100 100', width: 56, height: 56, 'aria-hidden': 'true', class: 'emblem' });
  const id = ABOUT[game] ? ABOUT[game][2] : 'K';
  const catalog = { pieces: [{ id, letter: id === 'marshal' ? 'M' : id === 'warrior' ? 'W' : id, stats: game === 'covenant' ? { king: true } : { role: id } }], extra: {} };
  box.append(drawPiece({ game, catalog, id, owner: 0 }));
  return box;
}

function drawGames() {
  const box = $('games');
  box.replaceChildren();
  for (const g of games) {
    const about = ABOUT[g.id] || ['', ''];
    const card = document.createElement('button');
    card.type = 'button';
    card.className = 'game-card';
    card.setAttribute('role', 'radio');
    card.setAttribute('aria-checked', String(g.id === chosen));
    card.dataset.game = g.id;
    card.append(emblem(g.id));
    const text = document.createElement('span');
    text.className = 'game-text';
    const h = document.createElement('strong');
    h.textContent = g.title;
    const p1 = document.createElement('span');
    p1.textContent = about[0];
    const p2 = document.createElement('span');
    p2.textContent = about[1];
    text.append(h, p1, p2);
    card.append(text);
    card.addEventListener('click', () => choose(g.id));
    // The rules link sits beside the card, not in it: a link inside a
    // button is neither reachable by keyboard nor announced.
    const rules = document.createElement('a');
    rules.href = `/rules/${g.id}`;
    rules.className = 'game-rules';
    rules.textContent = `${g.title}: rules`;
    const tile = document.createElement('div');
    tile.className = 'game-tile';
    tile.append(card, rules);
    box.append(tile);
  }
}

function options() {
  /** @type {Record<string, string>} */
  const out = {};
  for (const el of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('#options .option'))) {
    if (el.value.trim() !== el.dataset.default) out[el.name] = el.value.trim();
  }
  return out;
}

async function choose(/** @type {string} */ id) {
  chosen = id;
  drawGames();
  const game = games.find((g) => g.id === id);
  const box = $('options');
  box.replaceChildren(Object.assign(document.createElement('legend'), { textContent: 'Options' }));
  if (!game || game.options.length === 0) {
    box.append(Object.assign(document.createElement('p'), { textContent: 'This game has no options.' }));
  }
  for (const o of (game && game.options) || []) {
    const label = document.createElement('label');
    label.htmlFor = `opt-${o.key}`;
    label.textContent = o.key.replace(/-/g, ' ');
    const values = Array.isArray(o.values) ? o.values : String(o.values).split('|');
    // A list of words is a choice; anything else ("integer", "1..=9") is typed.
    const choice = values.length > 1 && values.every((v) => /^[\w.-]+$/.test(v));
    /** @type {HTMLSelectElement|HTMLInputElement} */
    let sel;
    if (choice) {
      const select = document.createElement('select');
      for (const v of values) select.append(new Option(v, v, v === o.default, v === o.default));
      sel = select;
    } else {
      const input = document.createElement('input');
      input.value = o.default;
      input.placeholder = String(o.values);
      sel = input;
    }
    sel.id = `opt-${o.key}`;
    sel.name = o.key;
    sel.dataset.default = o.default;
    sel.classList.add('option');
    sel.addEventListener('change', drawSeats);
    const help = document.createElement('small');
    help.textContent = choice ? o.help : `${o.help} (${o.values})`;
    const row = document.createElement('div');
    row.className = 'row';
    row.append(label, sel, help);
    box.append(row);
  }
  await drawSeats();
}

/** Counts the seat requests: only the latest one's answer is drawn. */
let seatsAsked = 0;

async function drawSeats() {
  const box = $('seats');
  const asked = ++seatsAsked;
  const answer = await api.seats(chosen, options());
  // A quicker change of game or options made since wins: an older answer
  // arriving late must not draw the wrong seats over it.
  if (asked !== seatsAsked) return;
  box.replaceChildren(Object.assign(document.createElement('legend'), { textContent: 'Who plays' }));
  if ('error' in answer) {
    box.append(Object.assign(document.createElement('p'), { className: 'error', textContent: answer.error }));
    seatList = [];
    return;
  }
  seatList = answer.seats;
  box.append(Object.assign(document.createElement('p'), {
    className: 'note',
    textContent: 'Choose “Me, on this screen” for several seats to play face to face on one device; a friend gets a link to open on theirs.',
  }));
  const game = games.find((g) => g.id === chosen);
  const levels = (game && game.levels) || ['easy', 'medium', 'hard'];
  seatList.forEach((s, i) => {
    const row = document.createElement('div');
    row.className = 'row';
    const label = document.createElement('label');
    label.htmlFor = `seat-${i}`;
    label.textContent = s.name;
    const sel = document.createElement('select');
    sel.id = `seat-${i}`;
    sel.name = `seat-${i}`;
    sel.append(new Option('Me, on this screen', 'here'));
    sel.append(new Option('A friend, by link', 'friend'));
    for (const l of levels) sel.append(new Option(`Computer (${l})`, `computer:${l}`));
    // By default: you against the computer.
    sel.value = i === 0 ? 'here' : `computer:${levels.includes('medium') ? 'medium' : levels[0]}`;
    row.append(label, sel);
    box.append(row);
  });
}

async function create(/** @type {Event} */ ev) {
  ev.preventDefault();
  $('create-error').textContent = '';
  const kinds = seatList.map((_, i) => /** @type {HTMLSelectElement} */ ($(`seat-${i}`)).value);
  /** @type {any} */
  const request = {
    game: chosen,
    options: options(),
    seats: kinds.map((k) => (k.startsWith('computer') ? k : 'human')),
  };
  const clock = /** @type {HTMLSelectElement} */ ($('clock')).value;
  if (clock) {
    const [initial, increment] = clock.split('+').map(Number);
    request.clock = { initial_seconds: initial, increment_seconds: increment };
  }
  const button = /** @type {HTMLButtonElement} */ ($('create'));
  button.disabled = true;
  const r = await api.createTable(request);
  button.disabled = false;
  if ('error' in r) {
    $('create-error').textContent = r.error;
    return;
  }
  const { table, seats, spectator_token } = r.created;
  /** @type {Record<string, string>} */
  const mine = {};
  /** @type {{seat: number, token: string}[]} */
  const friends = [];
  for (const s of seats) {
    if (kinds[s.seat] === 'here') mine[s.seat] = s.link_token;
    else friends.push({ seat: s.seat, token: s.link_token });
  }
  const title = (games.find((g) => g.id === chosen) || { title: chosen }).title;
  api.keep(table, { game: chosen, title, tokens: mine, spectator: spectator_token, invites: friends });
  const own = Object.values(mine);
  const go = api.tableUrl(table, own.length ? own : [spectator_token]);
  if (friends.length === 0) {
    location.href = go;
    return;
  }
  const box = $('invite');
  box.hidden = false;
  box.replaceChildren(Object.assign(document.createElement('h3'), { textContent: `Table ${table}: send the invitation` }));
  for (const f of friends) {
    const link = api.tableUrl(table, [f.token]);
    const row = document.createElement('div');
    row.className = 'row';
    const field = document.createElement('input');
    field.readOnly = true;
    field.value = link;
    field.id = `invite-${f.seat}`;
    const label = document.createElement('label');
    label.htmlFor = field.id;
    label.textContent = `Link for ${seatList[f.seat] ? seatList[f.seat].name : `seat ${f.seat + 1}`}`;
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.textContent = 'Copy';
    copy.addEventListener('click', () => api.copyText(link, copy));
    row.append(label, field, copy);
    box.append(row);
  }
  const open = document.createElement('a');
  open.href = go;
  open.className = 'button primary';
  open.textContent = 'Go to the table';
  box.append(open);
}


async function drawMine() {
  const box = $('mine');
  const server = await api.myTables();
  const local = api.kept();
  /** @type {{table: number, title: string, href: string, state: string}[]} */
  const rows = [];
  if (server) {
    for (const t of server) {
      const own = (t.seats || []).filter((/** @type {any} */ s) => s.mine && s.token).map((/** @type {any} */ s) => s.token);
      const invites = (t.seats || []).filter((/** @type {any} */ s) => !s.mine && s.token).map((/** @type {any} */ s) => ({ seat: s.seat, token: s.token }));
      api.keep(t.table, { game: t.game, title: t.title, invites, ...(t.spectator_token ? { spectator: t.spectator_token } : {}) });
      const tokens = own.length ? own : t.spectator_token ? [t.spectator_token] : [];
      if (tokens.length === 0) continue;
      const state = t.finished ? t.result || 'finished' : t.to_act ? 'your move' : 'waiting for the other side';
      rows.push({ table: t.table, title: t.title || t.game, href: api.tableUrl(t.table, tokens), state });
    }
  } else {
    for (const k of Object.values(local).sort((a, b) => b.created - a.created)) {
      const tokens = Object.values(k.tokens);
      rows.push({ table: k.table, title: k.title || k.game, href: api.tableUrl(k.table, tokens.length ? tokens : [k.spectator || '']), state: '' });
    }
  }
  if (rows.length === 0) return;
  const list = document.createElement('ul');
  list.className = 'mine';
  for (const r of rows) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = r.href;
    a.textContent = `${r.title}, table ${r.table}`;
    li.append(a);
    if (r.state) li.append(Object.assign(document.createElement('span'), { className: 'state', textContent: ` ${r.state}` }));
    list.append(li);
  }
  box.replaceChildren(list);
}

async function main() {
  games = await api.games();
  drawGames();
  await choose(chosen);
  $('new-table').addEventListener('submit', create);
  await drawMine();
  document.body.dataset.ready = 'true';
}

main();
