// Draws the board of a TableView in SVG: squares (chess, epoch, skirmish,
// warrior, lytharia) or flat-top hexes (covenant), the pieces, and the
// highlights of the click algorithm. Everything drawn comes from the catalog
// and the view; every cell that can be clicked is a keyboard button.

import { drawPiece, pieceName, svg } from './pieces.js';

/**
 * @typedef {{
 *   catalog: any, view: any, turn: number,
 *   selected: string|null, targets: Set<string>, touched: Set<string>,
 *   last: Set<string>, check?: Set<string>, clickable: Set<string>, readOnly: boolean,
 *   onCell: (cell: string) => void, onHover: (cell: string|null) => void,
 * }} BoardInput
 */

const SQUARE = 100;
const LIGHT = '#eedcb8';
const DARK = '#b08a5e';
const TERRAIN = { open: '#d7e8b0', forest: '#7fae68', hill: '#c9ab73', desert: '#ecdca4' };

/** Role letters of Lytharia's face-down troops. */
const ROLES = new Set(['K', 'Q', 'R', 'KN', 'B', 'P']);

/** @param {any} catalog @param {any} p the board's piece */
function describe(catalog, view, p) {
  const seat = (view.seats || []).find((/** @type {any} */ s) => s.player === p.owner);
  const side = view.game === 'epoch' && p.color ? (p.color === 'white' ? 'White' : 'Black') : seat ? seat.name : `Seat ${p.owner + 1}`;
  let name = pieceName(catalog, p.piece);
  if (view.game === 'lytharia' && p.face_up === false) name = ROLES.has(p.piece) ? `face-down ${name.replace(' (face down)', '')}` : `${name} (face down)`;
  const marks = [];
  if (p.enhanced) marks.push('enhanced');
  if (p.restricted) marks.push('restricted');
  if (p.dormant) marks.push('dormant');
  if (p.weapons && p.weapons.length) marks.push(`armed with ${p.weapons.join(', ')}`);
  if (p.facing) marks.push(`Swords facing ${p.facing}`);
  if (p.blood !== undefined) marks.push(`${p.blood} of ${p.max_blood} Blood`);
  if (p.damage) marks.push(`${p.damage} damage`);
  return `${side} ${name}${marks.length ? `, ${marks.join(', ')}` : ''}`;
}

/**
 * The marks a piece carries beside its artwork (states, weapons, Blood).
 * `turn` is the board's rotation on screen, so the Swords' arrow points
 * where its facing lies on the board as drawn.
 * @param {SVGElement} g @param {any} p @param {number} turn
 */
function decorate(g, p, turn) {
  if (p.enhanced) g.append(badge(82, 16, '+', '#1f7a2e', 'enhanced'));
  if (p.restricted) g.append(badge(82, 16, '−', '#9b2020', 'restricted'));
  if (p.dormant) {
    g.setAttribute('opacity', '0.6');
    g.append(badge(18, 16, 'z', '#3a3a7a', 'dormant'));
  }
  if (p.weapons && p.weapons.length) {
    const letters = { rook: 'R', knight: 'N', bishop: 'B', swords: 'S' };
    p.weapons.forEach((/** @type {string} */ w, i) => g.append(badge(16 + i * 22, 90, letters[w] || w[0].toUpperCase(), '#333', w)));
  }
  if (p.facing) {
    const angle = (({ north: 0, east: 90, south: 180, west: 270 }[p.facing] || 0) + turn) % 360;
    const arrow = svg('path', { d: 'M50 2l8 12h-16z', fill: '#c00', stroke: '#fff', 'stroke-width': 1.5, transform: `rotate(${angle} 50 50)` });
    g.append(arrow);
  }
  if (p.stack && p.stack.length) {
    const n = p.stack.reduce((/** @type {number} */ a, /** @type {any} */ s) => a + s.count, 0);
    g.append(badge(84, 84, String(n), '#5a3a00', 'stacked Warriors'));
  }
  if (p.blood !== undefined && p.max_blood) {
    const w = Math.max(0, Math.min(1, p.blood / p.max_blood));
    g.append(svg('rect', { x: 15, y: 92, width: 70, height: 7, fill: '#400', rx: 2 }));
    g.append(svg('rect', { x: 15, y: 92, width: 70 * w, height: 7, fill: w > 0.5 ? '#2c9a3a' : w > 0.25 ? '#d9a000' : '#d02020', rx: 2 }));
  }
  if (p.damage) g.append(badge(84, 84, String(p.damage), '#a01010', 'damage'));
}

function badge(/** @type {number} */ x, /** @type {number} */ y, /** @type {string} */ text, /** @type {string} */ fill, /** @type {string} */ what) {
  const g = svg('g', { class: `mark mark-${what.replace(/\W+/g, '-')}` });
  g.append(svg('circle', { cx: x, cy: y, r: 11, fill, stroke: '#fff', 'stroke-width': 2 }));
  const t = svg('text', { x, y: y + 6, 'text-anchor': 'middle', 'font-size': 16, 'font-weight': 700, fill: '#fff', 'font-family': 'system-ui, sans-serif' });
  t.textContent = text;
  g.append(t);
  return g;
}

/**
 * One cell's group: background, highlights, piece, and its keyboard button.
 * @param {BoardInput} input @param {string} cell @param {string} transform
 * @param {(g: SVGElement) => void} background @param {(cls: string) => SVGElement} outline
 */
function cellGroup(input, cell, transform, background, outline) {
  const { catalog, view } = input;
  const g = svg('g', { transform, 'data-cell': cell, class: 'cell' });
  background(g);
  if (input.last.has(cell)) g.append(outline('last'));
  if (input.check && input.check.has(cell)) g.append(outline('check'));
  if (input.selected === cell) g.append(outline('selected'));
  // Always there, shown by the `touched` class while a target is hovered.
  g.append(outline('touch-ring'));
  if (input.touched.has(cell)) g.classList.add('touched');
  const piece = (view.board.pieces || []).find((/** @type {any} */ p) => p.cell === cell);
  if (piece) {
    const faceDown = view.game === 'lytharia' && piece.face_up === false && ROLES.has(piece.piece);
    const art = drawPiece({ game: view.game, catalog, id: piece.piece, owner: piece.owner, piece, faceDown });
    if (view.game === 'lytharia' && piece.face_up === false && !faceDown) {
      // One's own face-down troop: seen by its owner, hidden from the other.
      art.append(badge(18, 16, '?', '#555', 'face down'));
    }
    decorate(art, piece, catalog.board.shape === 'hexes' ? 0 : input.turn);
    if (view.game === 'lytharia' && !ROLES.has(piece.piece)) {
      // A troop whose card this viewer knows: a short name and its Att/Def.
      const kind = (catalog.pieces || []).find((/** @type {any} */ k) => k.id === piece.piece);
      if (kind) {
        const word = kind.name.split(/[\s,]+/).filter(Boolean).pop() || kind.name;
        const name = svg('text', { x: 50, y: 11, 'text-anchor': 'middle', 'font-size': 12, class: 'troop-name' });
        name.textContent = word.slice(0, 11);
        art.append(name);
        if (kind.stats && kind.stats.att !== undefined) {
          const stats = svg('text', { x: 50, y: 99, 'text-anchor': 'middle', 'font-size': 12, class: 'troop-stats' });
          stats.textContent = `${kind.stats.att}/${kind.stats.def}`;
          art.append(stats);
        }
      }
    }
    if (catalog.board.shape === 'hexes') art.setAttribute('transform', 'translate(17 17) scale(0.66)');
    g.append(art);
  }
  if (input.targets.has(cell)) {
    g.append(piece ? outline('target capture') : svg('circle', { cx: 50, cy: 50, r: 14, class: 'target-dot' }));
  }
  // Covenant: a target hex names the damage the engine forecasts.
  const forecasts = input.targets.has(cell) && view.board.active && view.board.active.forecasts
    ? view.board.active.forecasts.filter((/** @type {any} */ f) => f.target === cell)
    : [];
  const predicted = forecasts.map((/** @type {any} */ f) => `, ${f.attack} would deal ${f.damage} damage${f.kills ? ' and fell it' : ''}`).join('');
  if (forecasts.length && piece) {
    const dmg = svg('text', { x: 84, y: 58, 'text-anchor': 'middle', 'font-size': 24, class: 'forecast', 'data-damage': String(forecasts[0].damage) });
    dmg.textContent = `-${forecasts[0].damage}`;
    g.append(dmg);
  }
  // What is written on the cell (the piece's letter, its marks, a forecast)
  // is said too, so that the name holds every word one can see on it.
  const written = [...g.querySelectorAll('text')].map((t) => (t.textContent || '').trim()).filter((w) => /[\p{L}\p{N}]/u.test(w));
  for (const t of g.querySelectorAll('text')) t.textContent = `${t.textContent} `;
  const label = `${cell}${piece ? `, ${describe(catalog, view, piece)}` : ', empty'}${written.length ? `, marked ${written.join(' ')}` : ''}${input.targets.has(cell) ? ', a legal destination' : ''}${predicted}`;
  g.setAttribute('aria-label', label);
  const title = svg('title');
  title.textContent = label;
  g.append(title);
  const active = !input.readOnly && (input.clickable.has(`cell:${cell}`) || input.targets.has(cell) || input.selected === cell);
  if (active) {
    g.setAttribute('role', 'button');
    g.setAttribute('tabindex', '0');
    g.classList.add('active');
  } else {
    g.setAttribute('role', 'img');
  }
  g.addEventListener('click', () => input.onCell(cell));
  g.addEventListener('mouseenter', () => input.onHover(cell));
  if (active) {
    // Only cells one can act on take keyboard focus (Chromium makes any SVG
    // element with a focus listener a Tab stop: not the whole board).
    g.addEventListener('keydown', (/** @type {any} */ e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        input.onCell(cell);
      }
    });
    g.addEventListener('focus', () => input.onHover(cell));
  }
  return g;
}

/**
 * Cells that Epoch's command zones cover: the block around each Marshal,
 * with the radius the catalog gives.
 * @param {any} catalog @param {any} view
 * @returns {Map<string, string>} cell → colour of the Marshal's side
 */
function commandZones(catalog, view) {
  const zones = new Map();
  if (view.game !== 'epoch') return zones;
  const r = (catalog.extra && catalog.extra.zone_radius) || 0;
  const files = catalog.board.files;
  const ranks = catalog.board.ranks;
  for (const p of view.board.pieces || []) {
    if (p.piece !== 'marshal') continue;
    const fi = files.indexOf(p.cell[0]);
    const ri = ranks.indexOf(p.cell.slice(1));
    for (let f = fi - r; f <= fi + r; f++) {
      for (let k = ri - r; k <= ri + r; k++) {
        if (f >= 0 && k >= 0 && f < files.length && k < ranks.length) zones.set(`${files[f]}${ranks[k]}`, p.color);
      }
    }
  }
  return zones;
}

/** @param {BoardInput} input @returns {SVGSVGElement} */
export function drawBoard(input) {
  return input.catalog.board.shape === 'hexes' ? drawHexes(input) : drawSquares(input);
}

/**
 * Where a square is drawn: its column and row on screen, for the board
 * turned clockwise by `turn` degrees from the first seat's view (a1 at the
 * bottom left). 180 is the far side; 90 and 270 the sides of four-seat
 * Warrior's Yellow and Blue, whose Kings start on the h- and a-files.
 * @param {number} fi @param {number} ri @param {number} nf @param {number} nr @param {number} turn
 */
export function squareAt(fi, ri, nf, nr, turn) {
  if (turn === 90) return { col: ri, row: fi };
  if (turn === 180) return { col: nf - 1 - fi, row: ri };
  if (turn === 270) return { col: nr - 1 - ri, row: nf - 1 - fi };
  return { col: fi, row: nr - 1 - ri };
}

/** @param {BoardInput} input */
function drawSquares(input) {
  const { files, ranks } = input.catalog.board;
  const turn = ((input.turn % 360) + 360) % 360;
  const sideways = turn === 90 || turn === 270;
  const cols = sideways ? ranks.length : files.length;
  const rows = sideways ? files.length : ranks.length;
  const w = cols * SQUARE;
  const h = rows * SQUARE;
  const root = /** @type {SVGSVGElement} */ (svg('svg', { viewBox: `0 0 ${w} ${h}`, class: 'board squares', role: 'group', 'aria-label': 'Board', 'data-turn': String(turn) }));
  const zones = commandZones(input.catalog, input.view);
  const command = input.catalog.extra && input.catalog.extra.command_square;
  const coords = svg('g', { class: 'coords', 'aria-hidden': 'true', 'pointer-events': 'none' });
  files.forEach((/** @type {string} */ file, fi) => {
    ranks.forEach((/** @type {string} */ rank, ri) => {
      const cell = `${file}${rank}`;
      const { col, row } = squareAt(fi, ri, files.length, ranks.length, turn);
      const dark = (fi + ri) % 2 === 0;
      // The bottom row names what runs along it (files, or ranks when the
      // board is sideways), the left column the other.
      const along = `${row === rows - 1 ? (sideways ? rank : file) : ''}`;
      const up = `${col === 0 ? (sideways ? file : rank) : ''}`;
      const coordinate = sideways ? `${up}${along}` : `${along}${up}`;
      if (coordinate) {
        const t = svg('text', { x: col * SQUARE + 4, y: row * SQUARE + 95, 'font-size': 18, class: 'coord' });
        t.textContent = coordinate;
        coords.append(t);
      }
      const g = cellGroup(
        input, cell, `translate(${col * SQUARE} ${row * SQUARE})`,
        (bg) => {
          bg.append(svg('rect', { width: SQUARE, height: SQUARE, fill: dark ? DARK : LIGHT }));
          const zone = zones.get(cell);
          if (zone) bg.append(svg('rect', { width: SQUARE, height: SQUARE, class: `zone zone-${zone}` }));
          if (cell === command) bg.append(svg('rect', { x: 6, y: 6, width: 88, height: 88, class: 'command-square' }));
        },
        (cls) => svg('rect', { x: 3, y: 3, width: SQUARE - 6, height: SQUARE - 6, class: `hl ${cls}` }),
      );
      root.append(g);
    });
  });
  // The board's edge names its files and ranks in a layer of its own, above
  // the squares and out of the way of clicks and of the squares' names.
  root.append(coords);
  return root;
}

/** @param {BoardInput} input */
function drawHexes(input) {
  const s = 50;
  const cells = input.catalog.board.cells;
  const maxCol = Math.max(...cells.map((/** @type {any} */ c) => c.col));
  const maxRow = Math.max(...cells.map((/** @type {any} */ c) => c.row));
  const w = s * (2 + 1.5 * maxCol);
  const hexH = Math.sqrt(3) * s;
  const h = hexH * (maxRow + 1.5);
  const root = /** @type {SVGSVGElement} */ (svg('svg', { viewBox: `0 0 ${w} ${h}`, class: 'board hexes', role: 'group', 'aria-label': 'Field' }));
  const corners = [0, 1, 2, 3, 4, 5].map((i) => {
    const a = (Math.PI / 3) * i;
    return `${50 + s * Math.cos(a)},${50 + s * Math.sin(a)}`;
  }).join(' ');
  const inner = [0, 1, 2, 3, 4, 5].map((i) => {
    const a = (Math.PI / 3) * i;
    return `${50 + (s - 5) * Math.cos(a)},${50 + (s - 5) * Math.sin(a)}`;
  }).join(' ');
  for (const c of cells) {
    let cx = s + 1.5 * s * c.col;
    let cy = h - (hexH / 2) * (1 + 2 * c.row + (c.col % 2 ? 1 : 0));
    if (input.turn % 360 === 180) {
      cx = w - cx;
      cy = h - cy;
    }
    const f = c.features;
    const land = f.find((/** @type {string} */ x) => x in TERRAIN) || 'open';
    const g = cellGroup(
      input, c.cell, `translate(${cx - 50} ${cy - 50})`,
      (bg) => {
        bg.append(svg('polygon', { points: corners, fill: TERRAIN[land], stroke: '#5d5436', 'stroke-width': 2, class: `hex ${land}` }));
        if (f.includes('rough')) bg.append(svg('polygon', { points: corners, class: 'rough' }));
        if (f.includes('holy-city')) bg.append(svg('polygon', { points: inner, class: 'holy-city' }));
        if (f.includes('holy-city-mark')) bg.append(svg('path', { d: 'M50 8l4 10h10l-8 6l3 10l-9-6l-9 6l3-10l-8-6h10z', class: 'holy-mark' }));
      },
      (cls) => svg('polygon', { points: inner, class: `hl ${cls}` }),
    );
    root.append(g);
  }
  return root;
}
