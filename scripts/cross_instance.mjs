// How long a move made through one `tabula serve` instance takes to reach a
// player connected to another instance on the same PostgreSQL database
// (LISTEN/NOTIFY, then the other instance reads the table back).
//
//   node --experimental-websocket scripts/cross_instance.mjs \
//     http://127.0.0.1:8081 http://127.0.0.1:8082 [PLIES]
//
// White plays through the first instance and Black through the second; each
// mover picks a legal action from its view (a seeded choice), and the time
// from sending it to the other seat's view of it is the cross-instance
// latency. A finished game is replaced by a new table. A benchmark, not a
// test: figures in docs/performance.md.

const [a, b, pliesArg] = process.argv.slice(2);
if (!a || !b) {
  console.error('usage: cross_instance.mjs URL_A URL_B [PLIES]');
  process.exit(2);
}
const plies = Number(pliesArg ?? 200);

let seed = 7;
/** @param {number} n */
function pick(n) {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
}

/** @param {string} base */
async function createTable(base) {
  const reply = await fetch(`${base}/api/tables`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game: 'chess', seats: ['human', 'human'] }),
  });
  if (reply.status !== 201) throw new Error(`creating a table: ${reply.status}`);
  return reply.json();
}

/** A connection whose views arrive in a queue. */
function connect(base, table, token) {
  const url = `${base.replace(/^http/, 'ws')}/api/tables/${table}/ws?token=${token}`;
  const ws = new WebSocket(url);
  /** @type {any[]} */
  const views = [];
  /** @type {((v: any) => void)[]} */
  const waiting = [];
  ws.onmessage = (event) => {
    const message = JSON.parse(String(event.data));
    if (message.type !== 'view') return;
    const entry = { at: performance.now(), view: message.view };
    const next = waiting.shift();
    if (next) next(entry);
    else views.push(entry);
  };
  const opened = new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  return {
    opened,
    ws,
    /** The next view at `ply` or later. */
    async viewAt(ply) {
      for (;;) {
        const entry = views.shift() ?? (await new Promise((r) => waiting.push(r)));
        if (entry.view.ply >= ply) return entry;
      }
    },
  };
}

/** @param {any} created @param {number} seat */
const token = (created, seat) => created.seats.find((s) => s.seat === seat).link_token;

const latencies = [];
const acks = [];
let played = 0;
while (played < plies) {
  const created = await createTable(a);
  const white = connect(a, created.table, token(created, 0));
  const black = connect(b, created.table, token(created, 1));
  await Promise.all([white.opened, black.opened]);
  let views = [(await white.viewAt(0)).view, (await black.viewAt(0)).view];
  const sides = [white, black];
  while (played < plies && views[0].to_act.kind === 'player') {
    const mover = views[0].to_act.player;
    const legal = views[mover].legal;
    const choice = legal[pick(legal.length)];
    const ply = views[mover].ply;
    const sent = performance.now();
    sides[mover].ws.send(JSON.stringify({ type: 'action', action: choice.action, ply }));
    const other = await sides[1 - mover].viewAt(ply + 1);
    latencies.push(other.at - sent);
    const own = await sides[mover].viewAt(ply + 1);
    acks.push(own.at - sent);
    views[1 - mover] = other.view;
    views[mover] = own.view;
    played += 1;
  }
  white.ws.close();
  black.ws.close();
}

/** @param {string} what @param {number[]} xs */
function report(what, xs) {
  xs.sort((x, y) => x - y);
  const q = (p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
  console.log(
    `${what}: ${xs.length} moves, p50 ${q(0.5).toFixed(1)} ms, ` +
      `p99 ${q(0.99).toFixed(1)} ms, max ${xs[xs.length - 1].toFixed(1)} ms`,
  );
}
report('the mover\'s own instance (acknowledged)', acks);
report('the other instance (the opponent sees it)', latencies);
