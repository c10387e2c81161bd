// Each game's own panel beside the board, drawn from the game's `board`
// object in the view: Skirmish's odds and dice, Warrior's phase, Covenant's
// active piece and its targets, Lytharia's stage and stack.

/** @param {string} tag @param {string} text @param {string} [cls] */
function el(tag, text, cls) {
  const e = document.createElement(tag);
  e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

/** A probability as "58% (7/12)". */
function chance(/** @type {any} */ odds) {
  if (odds.given === true) return 'certain';
  if (odds.given === false) return 'no chance';
  const [n, d] = odds.win_probability;
  return `${Math.round((100 * n) / d)}% (${n}/${d})`;
}

/**
 * Skirmish: the odds of an entry that starts a skirmish, in words.
 * @param {any} view @param {any} entry
 */
export function oddsFor(view, entry) {
  if (view.game !== 'skirmish' || !view.board.offers) return null;
  const offer = view.board.offers.find((/** @type {any} */ o) => o.action === entry.canonical);
  if (!offer) return null;
  return offer.odds.map((/** @type {any} */ o) => `attack ${o.attack_value} + bonus ${o.bonus} against defence ${o.defence_value}: wins ${chance(o)}`).join('; ');
}

/** @param {any} view */
function skirmish(view, /** @type {any} */ place, /** @type {string[]} */ targets, /** @type {string|null} */ hover, /** @type {any[]} */ legal) {
  const out = [];
  const b = view.board;
  if (b.waiting_for && !view.outcome) out.push(el('p', b.waiting_for, 'waiting'));
  if (b.pending) out.push(el('p', `Dice to come: ${b.pending.attacker} against ${b.pending.defender}; the attacker wins ${chance(b.pending)}.`));
  const dice = ((view.last && view.last.events) || []).filter((/** @type {any} */ e) => e.kind === 'dice' || e.kind === 'fight');
  for (const d of dice) out.push(el('p', `${d.kind === 'dice' ? 'Dice: ' : ''}${d.text}`, 'dice'));
  if (place && place.at === 'cell') {
    const from = legal.filter((e) => e.gesture.from.at === 'cell' && e.gesture.from.cell === place.cell);
    const rows = [];
    for (const e of from) {
      const odds = oddsFor(view, e);
      if (odds) rows.push(`${e.notation}: ${odds}`);
    }
    if (rows.length) {
      out.push(el('h3', 'Odds before you attack'));
      const ul = document.createElement('ul');
      ul.className = 'odds';
      for (const r of rows) ul.append(el('li', r));
      out.push(ul);
    }
  }
  void targets;
  void hover;
  return out;
}

const WARRIOR_PHASES = {
  move: 'Move a piece, or drop a Warrior from the Bank.',
  bonus: 'Bonus drops from your Reserve (optional): end them when done.',
  arm: 'Place weapons from your Reserve on your Warriors (optional): end when done.',
  buy: 'Buy from the Bank (optional), then end the turn.',
};

function warrior(/** @type {any} */ view) {
  const phase = view.board.phase;
  if (view.outcome) return [];
  const t = view.to_act;
  const seat = t.kind === 'player' ? view.seats.find((/** @type {any} */ s) => s.player === t.player) : null;
  const mine = view.legal.length > 0;
  return [el('p', `${seat ? `${seat.name}'s` : 'The'} phase: ${phase}.${mine ? ` ${WARRIOR_PHASES[phase] || ''}` : ''}`, 'waiting')];
}

function covenant(/** @type {any} */ catalog, /** @type {any} */ view, /** @type {string|null} */ hover) {
  const out = [];
  const b = view.board;
  out.push(el('p', `Round ${b.round}; rounds without a capture: ${b.quiet_rounds}. Grails: ${view.seats.map((/** @type {any} */ s, /** @type {number} */ i) => `${s.name} ${b.grails[i]}`).join(', ')}.`));
  // Once the game is over nobody acts: an active piece left in the state
  // (the King fell mid-activation, or a resignation) is not shown.
  const a = view.to_act.kind === 'over' ? null : b.active;
  if (a) {
    const piece = b.pieces.find((/** @type {any} */ p) => p.cell === a.cell);
    const name = piece ? ((catalog.pieces.find((/** @type {any} */ k) => k.id === piece.piece) || {}).name || piece.piece) : '';
    out.push(el('p', `Active: ${name} on ${a.cell}, ${a.mp} MP left. It can reach ${a.reachable.length} hexes and attack ${a.targets.length ? a.targets.join(', ') : 'nobody'}.`, 'waiting'));
    const target = hover && a.targets.includes(hover) ? b.pieces.find((/** @type {any} */ p) => p.cell === hover) : null;
    if (piece && target) {
      const preview = el('p', `Attack on ${target.cell}: attack ${piece.attack} against defence ${target.defence}; the target has ${target.blood} of ${target.max_blood} Blood.`, 'preview');
      preview.setAttribute('data-preview', 'attack');
      out.push(preview);
    }
    // The engine's forecast of each attack (never reckoned here): the one on
    // the hovered foe first, then the rest as a list.
    const forecasts = /** @type {any[]} */ (a.forecasts || []);
    if (forecasts.length) {
      const list = document.createElement('ul');
      list.className = 'forecasts';
      const sorted = [...forecasts].sort((x, y) => Number(y.target === hover) - Number(x.target === hover));
      for (const f of sorted) {
        const li = el('li', forecastText(f, b.pieces.find((/** @type {any} */ p) => p.cell === f.target)));
        li.dataset.forecast = f.action;
        li.dataset.target = f.target;
        li.dataset.damage = String(f.damage);
        if (f.target === hover) li.classList.add('preview');
        list.append(li);
      }
      out.push(el('h3', 'Predicted damage'), list);
    }
  }
  return out;
}

const ATTACK_WORDS = /** @type {Record<string, string>} */ ({ melee: 'Melee blow', shot: 'Shot', holy: 'Holy strike' });

/** One forecast in words: "Melee blow on e5: 6 damage (9 → 3 Blood); counter-blow 3". */
export function forecastText(/** @type {any} */ f, /** @type {any} */ foe) {
  const blood = foe ? ` (${foe.blood} → ${foe.blood - f.damage} Blood)` : '';
  const blows = f.blows > 1 ? ` in ${f.blows} blows` : '';
  const fell = f.kills ? ', it falls' : '';
  const counter = f.counter_damage === null || f.counter_damage === undefined
    ? '; no counter-blow'
    : `; counter-blow ${f.counter_damage}${f.counter_kills ? ', the attacker falls' : ''}`;
  return `${ATTACK_WORDS[f.attack] || f.attack} on ${f.target}: ${f.damage} damage${blows}${blood}${fell}${counter}.`;
}

/**
 * One entry of Lytharia's stack in words ("Blue: Soul Rot on h8"), from the
 * catalog's card names; a face-down troop's ability stays unnamed.
 * @param {any} catalog @param {any} view @param {any} entry
 */
export function stackText(catalog, view, entry) {
  const cards = new Map((((catalog && catalog.extra && catalog.extra.cards) || [])).map((/** @type {any} */ c) => [c.id, c]));
  const name = (/** @type {string} */ id) => (cards.get(id) || { name: id }).name;
  const seat = view.seats.find((/** @type {any} */ x) => x.player === entry.controller);
  const who = seat ? seat.name : 'A player';
  const src = entry.source || {};
  let what;
  if (typeof src.spell === 'string') what = name(src.spell);
  else if (src.ability && typeof src.ability === 'object') what = `an ability of ${name(src.ability.card)}`;
  else if (src.hidden) what = 'an ability of a face-down troop';
  else if (typeof src.card === 'string') what = src.ability === undefined ? name(src.card) : `an ability of ${name(src.card)}`;
  else if (src.ability_of !== undefined) what = 'an ability of a face-down troop';
  else what = 'a spell';
  const target = entry.target && entry.target.at ? ` on ${entry.target.at}` : '';
  return `${who}: ${what}${target}`;
}

/**
 * A Battle Duel's standing from the view's `duel`: the round (from 1; 0
 * while troops are picked), the score, each round's winner, and while
 * picking how many of the seven troops each side has chosen.
 * @param {any} view @param {any} duel @returns {string}
 */
function duelText(view, duel) {
  const name = (/** @type {number} */ i) => view.seats[i]?.name || `Player ${i + 1}`;
  const results = duel.results || [];
  const wins = (/** @type {number} */ i) => results.filter((/** @type {any} */ r) => r === i).length;
  const parts = [];
  if (duel.round > 0) parts.push(`Battle Duel, round ${duel.round}. Score: ${name(0)} ${wins(0)}, ${name(1)} ${wins(1)} (4 wins take the match).`);
  else parts.push('Battle Duel: each side picks 7 troops before the rounds begin.');
  if (results.length) {
    parts.push(results.map((/** @type {any} */ r, /** @type {number} */ i) =>
      (r === 0 || r === 1) ? `Round ${i + 1} won by ${name(r)}.` : `Round ${i + 1} tied.`).join(' '));
  }
  if (view.board.stage === 'pick') {
    parts.push(`Picked: ${[0, 1].map((i) => `${name(i)} ${duel.sides?.[i]?.picks_count ?? 0} of 7`).join(', ')}.`);
  }
  return parts.join(' ');
}

function lytharia(/** @type {any} */ catalog, /** @type {any} */ view) {
  const out = [];
  const b = view.board;
  out.push(el('p', `Stage: ${b.stage}. Turn ${b.turn_number || 0}.`, 'waiting'));
  if (b.duel) out.push(el('p', duelText(view, b.duel), 'duel'));
  if (b.stack && b.stack.length) {
    out.push(el('h3', 'The stack, waiting to resolve (the last resolves first)'));
    const ol = document.createElement('ol');
    ol.className = 'stack';
    for (const s of b.stack) ol.append(el('li', stackText(catalog, view, s)));
    out.push(ol);
    if (view.legal.some((/** @type {any} */ e) => e.gesture.from.at === 'button' && e.gesture.kind === 'pass')) {
      out.push(el('p', 'Respond with a spell from your hand, or pass to let it resolve.', 'waiting'));
    }
  }
  return out;
}

/**
 * @param {any} catalog @param {any} view @param {any} place the selected place
 * @param {string[]} targets @param {string|null} hover @param {any[]} legal
 * @returns {Node[]}
 */
export function gamePanel(catalog, view, place, targets, hover, legal) {
  if (view.game === 'skirmish') return skirmish(view, place, targets, hover, legal);
  if (view.game === 'warrior') return warrior(view);
  if (view.game === 'covenant') return covenant(catalog, view, hover);
  if (view.game === 'lytharia') return lytharia(catalog, view);
  if (view.game === 'epoch' && view.board.swap_available && !view.outcome) return [el('p', 'Black may swap sides instead of moving.', 'waiting')];
  return [];
}
