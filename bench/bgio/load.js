// Load generator: N rooms x 4 boardgame.io clients (boardgame.io/client over its socket.io
// transport) playing whole games of game.js closed loop, every seat picking the moment its state
// arrives. Rooms are created and every seat connected and synced before the clock starts; the first
// turn of every room is a warm-up. Prints one JSON line.
//   node load.js --url http://127.0.0.1:8000 --rooms 200 [--server-pid PID] [--timeout 600]
const fs = require('node:fs');
const os = require('node:os');
const { parseArgs } = require('node:util');
const { performance } = require('node:perf_hooks');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { SecretPicks, TURNS } = require('./game');

const PLAYERS = 4;
const WARMUP_TURNS = 1;
const CREATE_CONCURRENCY = 20;
const CLOCK_TICKS = 100; // USER_HZ of /proc, 100 on Linux

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    rooms: { type: 'string', default: '200' },
    'server-pid': { type: 'string' },
    timeout: { type: 'string', default: '600' },
  },
});

// ---- CPU, from /proc: the server's process, the whole machine, and this process ----

function processCpuSeconds(pid) {
  if (!pid) return null;
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').pop().trim().split(/\s+/);
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime + stime
  } catch {
    return null;
  }
}

function machineCpuSeconds() {
  const values = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].split(/\s+/).slice(1).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  return { busy: (total - values[3] - values[4]) / CLOCK_TICKS, total: total / CLOCK_TICKS };
}

function cpuSample(serverPid) {
  const own = process.cpuUsage();
  return {
    at: performance.now(),
    server: processCpuSeconds(serverPid),
    client: (own.user + own.system) / 1e6,
    machine: machineCpuSeconds(),
  };
}

function cpuBetween(first, last, actionsPerS) {
  const span = (last.at - first.at) / 1000;
  const cores = (a, b) => (a === null || b === null || span <= 0 ? null : round((b - a) / span, 2));
  const machineTotal = last.machine.total - first.machine.total;
  const cpu = {
    server_cores: cores(first.server, last.server),
    client_cores: cores(first.client, last.client),
    machine_cores: machineTotal ? round(((last.machine.busy - first.machine.busy) / machineTotal) * os.cpus().length, 2) : null,
    cores: os.cpus().length,
  };
  for (const who of ['server', 'client']) {
    const used = cpu[`${who}_cores`];
    cpu[`${who}_ms_per_action`] = used === null || !actionsPerS ? null : round((1000 * used) / actionsPerS, 3);
  }
  return cpu;
}

// ---- rooms and their timings ----

class Room {
  constructor(matchID, credentials) {
    this.matchID = matchID;
    this.credentials = credentials; // playerID -> credentials
    this.picks = new Map(); // turn -> picks sent
    this.lastPick = new Map(); // turn -> when its last pick was sent
    this.arrivals = new Map(); // turn -> when seats saw it resolved
    this.revealDone = new Map(); // turn -> when every seat had seen it resolved
    this.latencies = []; // [last pick sent, reveal at every seat]
    this.sends = [];
    this.finishedSeats = 0;
  }

  sent(turn) {
    const now = performance.now();
    this.sends.push(now);
    const count = (this.picks.get(turn) || 0) + 1;
    this.picks.set(turn, count);
    if (count === PLAYERS) this.lastPick.set(turn, now);
  }

  // a seat has seen `turn` resolved (a state of the next turn, or the game's end); true when it
  // was the last seat of the room to see it
  resolved(turn) {
    const now = performance.now();
    const arrivals = this.arrivals.get(turn) || [];
    arrivals.push(now);
    this.arrivals.set(turn, arrivals);
    if (arrivals.length < PLAYERS) return false;
    this.revealDone.set(turn, now);
    if (this.lastPick.has(turn)) this.latencies.push([this.lastPick.get(turn), now]);
    return true;
  }
}

async function postJson(url, body) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function createRoom(base) {
  const games = `${base}/games/${SecretPicks.name}`;
  const { matchID } = await postJson(`${games}/create`, { numPlayers: PLAYERS });
  const credentials = {};
  for (let seat = 0; seat < PLAYERS; seat++) {
    const joined = await postJson(`${games}/${matchID}/join`, { playerID: String(seat), playerName: `p${seat}` });
    credentials[String(seat)] = joined.playerCredentials;
  }
  return new Room(matchID, credentials);
}

async function inBatches(count, limit, make) {
  const results = [];
  for (let start = 0; start < count; start += limit) {
    const batch = Array.from({ length: Math.min(limit, count - start) }, () => make());
    results.push(...(await Promise.all(batch)));
  }
  return results;
}

// ---- one seat: a boardgame.io client that picks the first card of its hand on every state ----

function seat(base, room, playerID, events) {
  const client = Client({
    game: SecretPicks,
    numPlayers: PLAYERS,
    multiplayer: SocketIO({ server: base, socketOpts: { transports: ['websocket'], forceNew: true } }),
    matchID: room.matchID,
    playerID,
    credentials: room.credentials[playerID],
    debug: false,
  });
  let synced = false;
  let resolvedThrough = 0; // the turns this seat has seen resolved
  let pickedTurn = 0;
  let done = false;

  // a state of `turn` (or the game's end, TURNS + 1) tells the seat every turn before it resolved
  function resolvedBefore(turn) {
    for (; resolvedThrough < turn - 1; resolvedThrough++) events.resolved(room, resolvedThrough + 1);
  }

  function onState(state) {
    if (!state || done) return;
    const { ctx } = state;
    if (!synced) {
      synced = true;
      events.synced();
    }
    if (ctx.gameover) {
      done = true;
      resolvedBefore(TURNS + 1);
      room.finishedSeats += 1;
      events.finished();
      return;
    }
    resolvedBefore(ctx.turn);
    if (!events.go || pickedTurn === ctx.turn) return;
    if (!ctx.activePlayers || ctx.activePlayers[playerID] === undefined) return;
    pickedTurn = ctx.turn;
    room.sent(ctx.turn);
    client.moves.pick(0);
  }

  client.subscribe(onState);
  return { client, kick: () => onState(client.getState()) };
}

// ---- the run ----

function percentile(sorted, p) {
  if (!sorted.length) return null;
  return round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))], 2);
}

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: percentile(sorted, 1) };
}

function round(value, digits) {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

async function main() {
  const base = args.url.replace(/\/$/, '');
  const roomCount = Number(args.rooms);
  const serverPid = args['server-pid'] ? Number(args['server-pid']) : null;
  const rooms = await inBatches(roomCount, CREATE_CONCURRENCY, () => createRoom(base));

  let synced = 0;
  let finished = 0;
  let warmRooms = 0;
  let windowStart = null;
  let windowEnd = null;
  let startSample = null;
  let endSample = null;
  let allSynced;
  let allFinished;
  const syncedPromise = new Promise((resolve) => (allSynced = resolve));
  const finishedPromise = new Promise((resolve) => (allFinished = resolve));
  const seatCount = roomCount * PLAYERS;
  const events = {
    go: false,
    synced: () => ++synced === seatCount && allSynced(),
    finished: () => {
      if (++finished < seatCount) return;
      windowEnd = performance.now();
      endSample = cpuSample(serverPid);
      allFinished();
    },
    resolved: (room, turn) => {
      if (room.resolved(turn) && turn === WARMUP_TURNS && ++warmRooms === roomCount) {
        windowStart = performance.now();
        startSample = cpuSample(serverPid);
      }
    },
  };

  const seats = rooms.flatMap((room) =>
    Array.from({ length: PLAYERS }, (_, i) => seat(base, room, String(i), events)),
  );
  for (const s of seats) s.client.start();
  await syncedPromise;
  events.go = true; // every seat is connected and has its first state: all rooms play at once
  for (const s of seats) s.kick();

  const timeoutMs = Number(args.timeout) * 1000;
  let timer;
  const timedOut = await Promise.race([
    finishedPromise.then(() => false),
    new Promise((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (timedOut) {
    windowEnd = performance.now();
    endSample = cpuSample(serverPid);
  }
  for (const s of seats) s.client.stop();

  const windowMs = windowStart === null ? 0 : windowEnd - windowStart;
  const inWindow = (t) => windowStart !== null && t >= windowStart;
  const actions = rooms.reduce((n, room) => n + room.sends.filter(inWindow).length, 0);
  const latencies = rooms.flatMap((room) => room.latencies.filter(([pick]) => inWindow(pick)).map(([pick, done]) => done - pick));
  // from one reveal at every seat to the next; the seats' next picks ride on the reveal itself (the
  // state of the next turn), so unlike bench.server_load's there is no wait between the two to report
  const turns = [];
  for (const room of rooms) {
    for (let turn = 1; turn < TURNS; turn++) {
      const done = room.revealDone.get(turn);
      const nextDone = room.revealDone.get(turn + 1);
      if (done === undefined || !inWindow(done)) continue;
      if (nextDone !== undefined) turns.push(nextDone - done);
    }
  }
  const actionsPerS = windowMs > 0 ? actions / (windowMs / 1000) : 0;
  const gamesFinished = rooms.filter((room) => room.finishedSeats === PLAYERS).length;
  const result = {
    server: 'boardgame.io',
    rooms: roomCount,
    players: PLAYERS,
    turns: TURNS,
    warmup_turns: WARMUP_TURNS,
    games_finished: gamesFinished,
    actions,
    actions_total: rooms.reduce((n, room) => n + room.sends.length, 0),
    window_s: round(windowMs / 1000, 2),
    actions_per_s: windowMs > 0 ? round(actionsPerS, 1) : null,
    reveals: latencies.length,
    reveal_latency_ms: summary(latencies),
    turn_ms: summary(turns),
    cpu: startSample && endSample ? cpuBetween(startSample, endSample, actionsPerS) : null,
    errors: (timedOut ? 1 : 0) + (roomCount - gamesFinished),
    error_codes: timedOut ? { timeout: 1 } : {},
  };
  process.stdout.write(JSON.stringify(result) + '\n');
  process.exit(result.errors === 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
