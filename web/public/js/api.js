// The server's HTTP API (docs/api.md) and what this browser remembers of
// its tables. Where an endpoint is missing on an older server the page
// falls back to what it can do without it.

/** @typedef {{key: string, values: string[]|string, default: string, help: string}} GameOption */
/** @typedef {{id: string, title: string, options: GameOption[], levels?: string[]}} GameInfo */
/** @typedef {{seat: number, name: string, team?: number}} SeatInfo */

/** The six games, for a server that does not list them yet. */
const FALLBACK_GAMES = [
  { id: 'chess', title: 'Chess', options: [] },
  { id: 'epoch', title: 'Chess 13: Epoch', options: [] },
  { id: 'skirmish', title: 'Skirmish Chess', options: [{ key: 'mode', values: ['basic', 'advanced'], default: 'basic', help: 'basic or advanced rules' }] },
  { id: 'warrior', title: 'Warrior Chess', options: [{ key: 'players', values: ['2', '4'], default: '2', help: 'two players, or four in two teams' }] },
  { id: 'covenant', title: 'Covenant Chess', options: [] },
  { id: 'lytharia', title: 'Lytharian Chess', options: [] },
];

/**
 * @param {string} url
 * @param {RequestInit} [init]
 */
async function getJson(url, init) {
  const r = await fetch(url, init);
  let body = null;
  try {
    body = await r.json();
  } catch {
    body = null;
  }
  return { ok: r.ok, status: r.status, body };
}

/** @returns {Promise<GameInfo[]>} */
export async function games() {
  try {
    const r = await getJson('/api/games');
    if (r.ok && Array.isArray(r.body)) return r.body;
  } catch {
    // an older server: use the built-in list
  }
  return FALLBACK_GAMES;
}

/**
 * The seats a game seats with these options.
 * @param {string} game
 * @param {Record<string, string>} options
 * @returns {Promise<{seats: SeatInfo[]} | {error: string}>}
 */
export async function seats(game, options) {
  const q = new URLSearchParams(options).toString();
  try {
    const r = await getJson(`/api/games/${game}/seats${q ? `?${q}` : ''}`);
    if (r.ok && r.body && Array.isArray(r.body.seats)) return r.body;
    if (r.status === 400 && r.body) return { error: r.body.error };
  } catch {
    // fall through
  }
  const n = Number(options.players || 2) || 2;
  return { seats: Array.from({ length: n }, (_, i) => ({ seat: i, name: `Player ${i + 1}` })) };
}

/**
 * Creates a table.
 * @param {any} request
 * @returns {Promise<{ok: true, created: any} | {ok: false, error: string, field?: string}>}
 */
export async function createTable(request) {
  let r = await getJson('/api/tables', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  if (!r.ok && r.body && r.body.field === 'body' && (request.clock || request.seats.some((/** @type {string} */ s) => s.includes(':')))) {
    // An older server without clocks or levels: ask again without them.
    const plain = { ...request, seats: request.seats.map((/** @type {string} */ s) => s.split(':')[0]) };
    delete plain.clock;
    r = await getJson('/api/tables', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(plain),
    });
  }
  if (r.ok) return { ok: true, created: r.body };
  return { ok: false, error: (r.body && r.body.error) || `the server answered ${r.status}`, field: r.body && r.body.field };
}

/** This player's tables as the server knows them, or null when it does not. */
export async function myTables() {
  try {
    const r = await getJson('/api/me/tables');
    if (r.ok && Array.isArray(r.body)) return r.body;
  } catch {
    // fall through
  }
  return null;
}

// What this browser keeps per table: the tokens it holds, by seat.

/** @typedef {{table: number, game: string, title?: string, tokens: Record<string, string>, spectator?: string, invites?: {seat: number, token: string}[], created: number}} Kept */

const KEY = 'tabula.tables';

/** @returns {Record<string, Kept>} */
export function kept() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || '{}') || {};
  } catch {
    return {};
  }
}

/**
 * Remembers tokens for a table (merged with what is kept).
 * @param {number} table
 * @param {Partial<Kept>} entry
 */
export function keep(table, entry) {
  const all = kept();
  const old = all[table] || { table, game: entry.game || '', tokens: {}, created: Date.now() };
  all[table] = { ...old, ...entry, tokens: { ...old.tokens, ...(entry.tokens || {}) } };
  localStorage.setItem(KEY, JSON.stringify(all));
  return all[table];
}

/** The table page's address for a table, holding `tokens` in the fragment. */
export function tableUrl(/** @type {number} */ table, /** @type {string[]} */ tokens) {
  return `${location.origin}/t/${table}#t=${tokens.join(',')}`;
}

/**
 * Copies `text`, saying so on `button`.
 * @param {string} text @param {HTMLElement} button
 */
export async function copyText(text, button) {
  const was = button.textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    button.textContent = 'Select the link and copy it';
  }
  setTimeout(() => { button.textContent = was; }, 2000);
}
