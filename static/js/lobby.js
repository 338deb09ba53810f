// The front page: create a private room, or open one by its code. The games, their players and
// their expansions come from the server's registry of game kinds (GET /api/catalog: `games`).
import { api, roomUrl, saveSeat } from "./api.js";
import { CLOCK_CHOICES, clockOptions } from "./clock.js";
import { startMoveCount } from "./move-count.js";
import { h } from "./ui.js";

const error = document.getElementById("error");
const create = document.getElementById("create-form");

// Until the catalog answers: the two games as the page has always offered them.
let games = [
  { name: "classic", title: "7 Wonders", players: { min: 3, max: 7 }, wonder_sides: true, expansions: [] },
  { name: "duel", title: "7 Wonders Duel", players: { min: 2, max: 2 }, wonder_sides: false, expansions: [] },
];
let enabled = {}; // expansion name -> whether this server offers it (ENABLED_EXPANSIONS)
const chosenExpansions = new Set(); // ticked by the player: none by default

const kind = () => games.find((g) => g.name === create.game.value) || games[0];
const playersText = (g) => (g.players.min === g.players.max ? `${g.players.min} players` : `${g.players.min}–${g.players.max} players`);

function showGames() {
  const chosen = create.game.value;
  create.game.replaceChildren(...games.map((g) => new Option(`${g.title} (${playersText(g)})`, g.name)));
  if (games.some((g) => g.name === chosen)) create.game.value = chosen;
}

// The chosen game's own choices: how many players, the wonders' side, its expansions with what
// players should know of each (Armada: provisional values).
function showKind() {
  const g = kind();
  document.getElementById("side-choice").hidden = !g.wonder_sides;
  const players = create.players;
  players.min = g.players.min;
  players.max = g.players.max;
  if (Number(players.value) < g.players.min || Number(players.value) > g.players.max) players.value = g.players.min;
  document.getElementById("players-choice").hidden = g.players.min === g.players.max;
  const box = document.getElementById("expansions");
  // unticked until chosen (Armada runs on provisional values), its notice beside the choice; a
  // choice is kept while another game is looked at
  box.replaceChildren(...g.expansions.filter((e) => enabled[e.name]).map((e) => {
    const notice = h("p", { class: "notice", id: `${e.name}-notice` }, [e.notices.join(" ")]);
    notice.hidden = !e.notices.length;
    const input = h("input", { type: "checkbox", name: e.name, "aria-describedby": notice.id });
    input.checked = chosenExpansions.has(e.name);
    input.addEventListener("change", () => {
      if (input.checked) chosenExpansions.add(e.name);
      else chosenExpansions.delete(e.name);
    });
    return h("div", { class: "expansion" }, [h("label", {}, [h("span", {}, [input, ` ${e.title} expansion`])]), notice]);
  }));
}

create.clock.replaceChildren(...clockOptions());
create.game.addEventListener("change", showKind);
showGames();
showKind();
api("GET", "/api/catalog").then((catalog) => {
  games = catalog.games;
  enabled = Object.fromEntries(Object.entries(catalog.expansions).map(([name, e]) => [name, e.enabled]));
  const longest = catalog.limits && catalog.limits.max_name_length;
  if (longest) {
    create.name.maxLength = longest;
    document.getElementById("name-hint").textContent = `at most ${longest} characters`;
  }
  showGames();
  showKind();
}).catch(() => {});

create.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.textContent = "";
  const form = create;
  const g = kind();
  const players = g.players.min === g.players.max ? g.players.min : Number(form.players.value);
  const bots = Math.min(Number(form.bots.value) || 0, players - 1);
  const body = {
    name: form.name.value.trim(),
    game: g.name,
    players,
    bots: Array.from({ length: bots }, () => ({ kind: form.bot_kind.value })),
    clock: CLOCK_CHOICES[Number(form.clock.value)].clock,
  };
  if (g.wonder_sides) body.wonder_side = form.wonder_side.value;
  const expansions = [...document.querySelectorAll("#expansions input:checked")].map((i) => i.name);
  if (expansions.length) body.expansions = expansions;
  try {
    const room = await api("POST", "/api/rooms", body);
    saveSeat(room.code, room.seat, room.token);
    location.href = roomUrl(room.code);
  } catch (e) {
    error.textContent = e.message;
  }
});

// A learning game: the server deals a known game with easy bots and hints (learn: true); it starts at
// once, and the room page's coach (js/coach.js) explains it.
for (const button of document.querySelectorAll("button.learn")) {
  button.addEventListener("click", async () => {
    error.textContent = "";
    button.disabled = true;
    try {
      const name = create.name.value.trim() || "You";
      const room = await api("POST", "/api/rooms", { name, game: button.dataset.game, learn: true });
      saveSeat(room.code, room.seat, room.token);
      await api("POST", `/api/rooms/${room.code}/start`, undefined, room.token);
      location.href = roomUrl(room.code);
    } catch (e) {
      error.textContent = e.message;
      button.disabled = false;
    }
  });
}

document.getElementById("join-form").addEventListener("submit", (event) => {
  event.preventDefault();
  location.href = roomUrl(event.target.code.value.trim());
});

// The games this browser holds: how many owe your move, in the title, the icon, the header's link
// and a panel beside the forms.
startMoveCount((answer) => {
  if (!answer) return;
  const listed = answer.games.filter((g) => g.status !== "gone").length;
  document.getElementById("my-games-panel").hidden = listed === 0;
  const owed = answer.your_move;
  document.getElementById("my-games-summary").textContent = `${listed === 1 ? "1 game" : `${listed} games`} in this browser; ${
    owed === 0 ? "none owes your move" : owed === 1 ? "1 owes your move" : `${owed} owe your move`}.`;
});
