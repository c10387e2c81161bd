// The click algorithm of docs/protocol.md section 3: which places are
// clickable, what a click selects, highlights or sends. It reads only the
// gestures the server sent with `legal`; it knows no rules.

/**
 * @typedef {{at: 'cell', cell: string} | {at: 'item', zone: string, owner?: number, item: string} | {at: 'button', button: string, label: string}} Place
 * @typedef {{kind: string, from: Place, to?: string, touches?: string[], choice?: {id: string, label: string}}} Gesture
 * @typedef {{canonical: string, notation: string, action: any, gesture: Gesture}} Entry
 * @typedef {{kind: 'idle'} | {kind: 'send', entry: Entry} | {kind: 'select', place: Place, targets: string[], menu: Entry[]} | {kind: 'pick', entries: Entry[], place: Place}} Step
 */

/** A key that is equal for equal places (`at` and its fields). */
export function placeKey(/** @type {Place} */ p) {
  if (p.at === 'cell') return `cell:${p.cell}`;
  if (p.at === 'item') return `item:${p.zone}:${p.owner ?? ''}:${p.item}`;
  return `button:${p.button}`;
}

/** Every place a first click may start from. */
export function clickable(/** @type {Entry[]} */ legal) {
  return new Set(legal.map((e) => placeKey(e.gesture.from)));
}

/** The distinct buttons of `legal`, in order. */
export function buttons(/** @type {Entry[]} */ legal) {
  /** @type {Map<string, {button: string, label: string, entries: Entry[]}>} */
  const seen = new Map();
  for (const e of legal) {
    const f = e.gesture.from;
    if (f.at !== 'button') continue;
    const b = seen.get(f.button) || { button: f.button, label: f.label, entries: [] };
    b.entries.push(e);
    seen.set(f.button, b);
  }
  return [...seen.values()];
}

/** The label of an entry in a picker. */
export function entryLabel(/** @type {Entry} */ e) {
  return e.gesture.choice ? e.gesture.choice.label : e.notation;
}

/**
 * What a first click on `place` does.
 * @param {Entry[]} legal
 * @param {Place} place
 * @returns {Step}
 */
export function firstClick(legal, place) {
  const key = placeKey(place);
  const from = legal.filter((e) => placeKey(e.gesture.from) === key);
  if (from.length === 0) return { kind: 'idle' };
  const oneClick = from.filter((e) => e.gesture.to === undefined);
  const twoClick = from.filter((e) => e.gesture.to !== undefined);
  if (twoClick.length === 0) {
    if (oneClick.length === 1) return { kind: 'send', entry: oneClick[0] };
    return { kind: 'pick', entries: oneClick, place };
  }
  const targets = [...new Set(twoClick.map((e) => /** @type {string} */ (e.gesture.to)))];
  return { kind: 'select', place, targets, menu: oneClick };
}

/**
 * What a second click on `cell`, with `place` selected, does.
 * @param {Entry[]} legal
 * @param {Place} place
 * @param {string} cell
 * @returns {Step}
 */
export function secondClick(legal, place, cell) {
  const key = placeKey(place);
  const hits = legal.filter((e) => placeKey(e.gesture.from) === key && e.gesture.to === cell);
  if (hits.length === 0) return { kind: 'idle' };
  if (hits.length === 1) return { kind: 'send', entry: hits[0] };
  return { kind: 'pick', entries: hits, place };
}

/** The cells to highlight on hovering a target: its gestures' touches. */
export function touches(/** @type {Entry[]} */ legal, /** @type {Place} */ place, /** @type {string} */ cell) {
  const key = placeKey(place);
  const out = new Set();
  for (const e of legal) {
    if (placeKey(e.gesture.from) === key && e.gesture.to === cell) {
      for (const t of e.gesture.touches || []) out.add(t);
    }
  }
  return out;
}
