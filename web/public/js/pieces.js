// Piece artwork drawn for tabula: every piece is a token on a 100×100 grid,
// its silhouette chosen by the catalog's piece (or its role), its colour by
// the side, and its catalog letter written on it so that no piece is told
// apart by colour alone.

const SVG = 'http://www.w3.org/2000/svg';

/**
 * @param {string} tag
 * @param {Record<string, string|number>} [attrs]
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** Silhouettes, each a list of SVG path data on a 100×100 box. */
const SHAPES = {
  pawn: ['M50 16a13 13 0 1 1 0 26a13 13 0 1 1 0-26z', 'M38 46h24l8 30h-40z', 'M24 78h52v10h-52z'],
  rook: ['M26 18h10v8h8v-8h12v8h8v-8h10v20l-8 6v30h-32v-30l-8-6z', 'M22 78h56v10h-56z'],
  bishop: ['M50 10l5 6c10 8 16 18 14 30c-2 10-10 16-19 18c-9-2-17-8-19-18c-2-12 4-22 14-30z', 'M38 66h24l6 10h-36z', 'M24 78h52v10h-52z'],
  knight: ['M34 86v-18c0-10 10-14 10-22l-16 8l-6-10l22-26l8-8l4 8c16 6 22 24 20 44l-4 26z', 'M22 80h58v8h-58z'],
  queen: ['M16 30l12 34h44l12-34l-16 16l-8-26l-10 22l-10-22l-8 26z', 'M26 66h48l4 10h-56z', 'M22 78h56v10h-56z'],
  king: ['M46 6h8v8h8v8h-8v8h-8v-8h-8v-8h8z', 'M20 40c8-10 22-10 30 0c8-10 22-10 30 0l-8 26h-44z', 'M26 68h48l4 8h-56z', 'M22 78h56v10h-56z'],
  shield: ['M18 14h64v30c0 22-14 36-32 44c-18-8-32-22-32-44z'],
  diamond: ['M50 8l40 42l-40 42l-40-42z'],
  star: ['M50 6l12 28l30 2l-23 19l8 30l-27-17l-27 17l8-30l-23-19l30-2z'],
  hat: ['M50 6l26 62h-52z', 'M14 68h72v14h-72z'],
  dagger: ['M50 6l10 52h-20z', 'M30 58h40v8h-40z', 'M45 66h10v22h-10z'],
  octagon: ['M34 10h32l24 24v32l-24 24h-32l-24-24v-32z'],
  horse: ['M20 84l6-36l24-34l24 34l6 36z'],
  circle: ['M50 10a40 40 0 1 1 0 80a40 40 0 1 1 0-80z'],
  helm: ['M22 60c0-26 12-44 28-44s28 18 28 44v10h-56z', 'M22 74h56v12h-56z'],
};

/** Which silhouette a piece of a game wears. */
const BY_GAME = {
  chess: { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' },
  epoch: {
    sentinel: 'rook', templar: 'shield', herald: 'diamond', mage: 'hat', assassin: 'dagger',
    emperor: 'king', pope: 'bishop', marshal: 'octagon', legionary: 'pawn',
  },
  warrior: { king: 'king', warrior: 'helm', rook: 'rook', knight: 'knight', bishop: 'bishop', swords: 'dagger' },
  roles: { K: 'king', Q: 'queen', R: 'rook', KN: 'knight', B: 'bishop', P: 'pawn' },
};

/** Side colours: fill, outline, letter. */
const PALETTES = {
  light: ['#f6f1e4', '#1d1d1d', '#1d1d1d'],
  dark: ['#2a2a2e', '#f0f0f0', '#ffffff'],
  gold: ['#e2b43b', '#3a2a00', '#1d1400'],
  blue: ['#2f5fc4', '#0c1a3a', '#ffffff'],
  red: ['#c8322f', '#3a0b0a', '#ffffff'],
  green: ['#23702f', '#0b2a10', '#ffffff'],
  yellow: ['#f2d73b', '#3a3000', '#1d1800'],
  purple: ['#5b3478', '#f0e6ff', '#ffffff'],
};

/**
 * The palette a side's pieces wear.
 * @param {string} game
 * @param {number} owner
 * @param {any} piece the board's piece entry
 * @param {any} catalog
 */
export function paletteOf(game, owner, piece, catalog) {
  if (game === 'epoch' && piece && piece.color) return piece.color === 'white' ? 'light' : 'dark';
  if (game === 'covenant') return owner === 0 ? 'gold' : 'blue';
  if (game === 'warrior') {
    const armies = (catalog.extra && catalog.extra.armies) || [];
    const army = armies.find((/** @type {any} */ a) => a.seat === owner);
    return (army && army.colour) || (owner === 0 ? 'red' : 'blue');
  }
  if (game === 'lytharia') return owner === 0 ? 'light' : 'purple';
  return owner === 0 ? 'light' : 'dark';
}

/**
 * The silhouette of a piece kind.
 * @param {string} game
 * @param {any} kind the catalog's PieceKind (may be undefined)
 * @param {string} id
 */
function shapeOf(game, kind, id) {
  if (game === 'chess' || game === 'skirmish') return BY_GAME.chess[id] || 'circle';
  if (game === 'epoch') return BY_GAME.epoch[id] || 'circle';
  if (game === 'warrior') return BY_GAME.warrior[id] || 'circle';
  if (game === 'lytharia') {
    const role = (kind && kind.stats && kind.stats.role) || id;
    return BY_GAME.roles[role] || 'circle';
  }
  if (game === 'covenant') {
    const s = (kind && kind.stats) || {};
    if (s.king) return 'king';
    if (s.royal) return 'queen';
    if (s.legend) return 'star';
    if (s.rider) return 'horse';
    if (s.powers && (s.powers.shoot || s.powers.ranged)) return 'hat';
    return 'shield';
  }
  return 'circle';
}

/**
 * Draws one piece as an SVG group on a 100×100 box.
 * @param {{game: string, catalog: any, id: string, owner: number, piece?: any, faceDown?: boolean}} p
 * @returns {SVGElement}
 */
export function drawPiece({ game, catalog, id, owner, piece, faceDown }) {
  const kind = (catalog.pieces || []).find((/** @type {any} */ k) => k.id === id);
  const [fill, stroke, ink] = PALETTES[paletteOf(game, owner, piece, catalog)] || PALETTES.light;
  const g = svg('g', { class: 'piece' });
  if (faceDown) {
    // A face-down troop: a card back in its side's colour, its role on it.
    g.append(svg('rect', { x: 14, y: 8, width: 72, height: 84, rx: 8, fill, stroke, 'stroke-width': 4 }));
    g.append(svg('rect', { x: 22, y: 16, width: 56, height: 68, rx: 4, fill: 'none', stroke, 'stroke-width': 2, 'stroke-dasharray': '6 4' }));
  }
  const shape = SHAPES[shapeOf(game, kind, id)] || SHAPES.circle;
  const scale = faceDown ? 0.6 : 1;
  const body = svg('g', faceDown ? { transform: `translate(20 12) scale(${scale})` } : {});
  for (const d of shape) {
    body.append(svg('path', { d, fill, stroke, 'stroke-width': 4, 'stroke-linejoin': 'round' }));
  }
  g.append(body);
  const letter = pieceLetter(game, catalog, id, !!faceDown);
  if (letter) {
    // The catalog's letter, on a badge that contrasts with any silhouette.
    const t = svg('text', {
      x: 50, y: faceDown ? 80 : 62, 'text-anchor': 'middle', 'font-size': letter.length > 1 ? 30 : 36,
      'font-weight': 700, fill: ink, stroke: fill, 'stroke-width': 6, 'paint-order': 'stroke',
      'font-family': 'system-ui, sans-serif',
    });
    t.textContent = letter;
    g.append(t);
  }
  return g;
}

/**
 * The letter drawn on a piece (the catalog's), or '' where the silhouette
 * alone is the custom (chess and Skirmish pieces face up).
 * @param {string} game @param {any} catalog @param {string} id @param {boolean} faceDown
 */
export function pieceLetter(game, catalog, id, faceDown) {
  if ((game === 'chess' || game === 'skirmish') && !faceDown) return '';
  const kind = (catalog.pieces || []).find((/** @type {any} */ k) => k.id === id);
  return (kind && kind.letter) || id.slice(0, 2);
}

/**
 * The piece's name in words for its accessible name.
 * @param {any} catalog
 * @param {string} id
 */
export function pieceName(catalog, id) {
  const kind = (catalog.pieces || []).find((/** @type {any} */ k) => k.id === id);
  return kind ? kind.name : id;
}
