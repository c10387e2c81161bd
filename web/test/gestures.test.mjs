// The click algorithm on gestures shaped like the golden views'
// (docs/protocol.md section 3), without a browser.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstClick, secondClick, buttons, clickable, touches } from '../public/js/gestures.js';

const cell = (c) => ({ at: 'cell', cell: c });
const entry = (notation, gesture) => ({ canonical: notation, notation, action: { n: notation }, gesture });

// Skirmish, advanced: the plain capture and two Tactical movements share e4.
const skirmish = [
  entry('e4xd5', { kind: 'capture', from: cell('e4'), to: 'd5' }),
  entry('tac:e4-e4:xd5', { kind: 'attack', from: cell('e4'), to: 'd5', choice: { id: 'tactical', label: 'Attack at half value, remaining on e4' } }),
  entry('tac:e4-e5:xd5', { kind: 'attack', from: cell('e4'), to: 'e5', touches: ['d5'], choice: { id: 'tactical:d5', label: 'Tactical movement to e5' } }),
  entry('end', { kind: 'end-turn', from: { at: 'button', button: 'end-turn', label: 'End the turn' } }),
];

test('a piece shows its destinations, and a shared click pair asks which', () => {
  const step = firstClick(skirmish, cell('e4'));
  assert.equal(step.kind, 'select');
  assert.deepEqual(step.targets.sort(), ['d5', 'e5']);
  const pick = secondClick(skirmish, cell('e4'), 'd5');
  assert.equal(pick.kind, 'pick');
  assert.deepEqual(pick.entries.map((e) => e.notation), ['e4xd5', 'tac:e4-e4:xd5']);
  const one = secondClick(skirmish, cell('e4'), 'e5');
  assert.equal(one.kind, 'send');
  assert.equal(one.entry.notation, 'tac:e4-e5:xd5');
  assert.deepEqual([...touches(skirmish, cell('e4'), 'e5')], ['d5']);
});

test('a click where nothing starts does nothing', () => {
  assert.equal(firstClick(skirmish, cell('a1')).kind, 'idle');
  assert.equal(secondClick(skirmish, cell('e4'), 'a1').kind, 'idle');
  assert.ok(!clickable(skirmish).has('cell:a1'));
});

test('buttons are one click each; a card with several one-click uses asks', () => {
  assert.deepEqual(buttons(skirmish).map((b) => b.label), ['End the turn']);
  const hand = { at: 'item', zone: 'hand', owner: 1, item: 'firebolt' };
  const card = [
    entry('cast Firebolt', { kind: 'cast', from: hand, to: 'e5' }),
    entry('harness Firebolt', { kind: 'spend', from: hand, choice: { id: 'harness', label: 'Harness for 3 mana' } }),
    entry('discard Firebolt', { kind: 'discard', from: hand, choice: { id: 'discard', label: 'Discard' } }),
  ];
  const step = firstClick(card, hand);
  assert.equal(step.kind, 'select');
  assert.deepEqual(step.targets, ['e5']);
  assert.deepEqual(step.menu.map((e) => e.notation), ['harness Firebolt', 'discard Firebolt']);
  const solo = [card[1]];
  assert.equal(firstClick(solo, hand).kind, 'send');
});

test("a blast is a second click on the Mage's own square", () => {
  const legal = [
    entry('Gd4-d5', { kind: 'move', from: cell('d4'), to: 'd5' }),
    entry('Gd4*', { kind: 'blast', from: cell('d4'), to: 'd4', touches: ['c5', 'e5'] }),
  ];
  const step = firstClick(legal, cell('d4'));
  assert.ok(step.kind === 'select' && step.targets.includes('d4'));
  const blast = secondClick(legal, cell('d4'), 'd4');
  assert.equal(blast.kind, 'send');
  assert.equal(blast.entry.gesture.kind, 'blast');
});
