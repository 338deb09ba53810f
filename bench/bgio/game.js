// A boardgame.io game of the load shape of bench.server_load: 4 players, 18 turns, every turn each
// player secretly picks one card of their hand and the turn resolves once all have picked.
const { ActivePlayers, INVALID_MOVE, PlayerView } = require('boardgame.io/core');

const TURNS = 18;

function dealHands(numPlayers) {
  const players = {};
  for (let seat = 0; seat < numPlayers; seat++) {
    const hand = Array.from({ length: TURNS }, (_, i) => seat * TURNS + i);
    players[String(seat)] = { hand, played: [] };
  }
  return players;
}

// Hands are in G.players (each seat sees only its own, PlayerView.STRIP_SECRETS) and the picks of the
// turn under way in G.secret (seen by nobody): no seat learns another's pick before the reveal.
function pick({ G, playerID }, index) {
  const hand = G.players[playerID].hand;
  if (!Number.isInteger(index) || index < 0 || index >= hand.length) return INVALID_MOVE;
  G.secret.picks[playerID] = index;
}

function reveal({ G }) {
  const revealed = {};
  for (const [seat, index] of Object.entries(G.secret.picks)) {
    const player = G.players[seat];
    const [card] = player.hand.splice(index, 1);
    player.played.push(card);
    revealed[seat] = card;
  }
  G.revealed = revealed;
  G.secret.picks = {};
  G.turnsPlayed += 1;
}

const SecretPicks = {
  name: 'secret-picks',
  setup: ({ ctx }) => ({
    turnsPlayed: 0,
    revealed: {},
    players: dealHands(ctx.numPlayers),
    secret: { picks: {} },
  }),
  playerView: PlayerView.STRIP_SECRETS,
  // the move reads the secret state, which clients do not have: it runs on the server only; the
  // seats pick at the same time, each from the state before the others' picks arrived, so a pick
  // made on an older state of the turn is still taken
  moves: { pick: { move: pick, client: false, ignoreStaleStateID: true } },
  turn: {
    activePlayers: ActivePlayers.ALL_ONCE,
    endIf: ({ G, ctx }) => Object.keys(G.secret.picks).length === ctx.numPlayers,
    onEnd: reveal,
  },
  endIf: ({ G }) => (G.turnsPlayed >= TURNS ? { turns: G.turnsPlayed } : undefined),
  minPlayers: 4,
  maxPlayers: 4,
};

module.exports = { SecretPicks, TURNS };
