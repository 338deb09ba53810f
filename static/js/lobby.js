// The front page: create a private room, or open one by its code.
import { api, roomUrl, saveSeat } from "./api.js";
import { CLOCK_CHOICES } from "./clock.js";

const error = document.getElementById("error");
const create = document.getElementById("create-form");

let armada = { enabled: true, notices: [] }; // what the server says of Armada (GET /api/catalog)

function showKind() {
  const classic = create.game.value === "classic";
  for (const el of create.querySelectorAll(".classic-only")) el.hidden = !classic;
  for (const el of create.querySelectorAll(".armada-only")) el.hidden = !classic || !armada.enabled;
  const notice = document.getElementById("armada-notice");
  notice.textContent = armada.notices.join(" ");
  notice.hidden = !(classic && armada.enabled && create.armada.checked && armada.notices.length);
}
for (const [i, choice] of CLOCK_CHOICES.entries()) create.clock.append(new Option(choice.label, String(i)));
create.game.addEventListener("change", showKind);
create.armada.addEventListener("change", showKind);
showKind();
api("GET", "/api/catalog").then((catalog) => {
  armada = catalog.expansions.armada || { enabled: false, notices: [] };
  if (!armada.enabled) create.armada.checked = false;
  const longest = catalog.limits && catalog.limits.max_name_length;
  if (longest) {
    create.name.maxLength = longest;
    document.getElementById("name-hint").textContent = `at most ${longest} characters`;
  }
  showKind();
}).catch(() => {});

create.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.textContent = "";
  const form = create;
  const classic = form.game.value === "classic";
  const players = classic ? Number(form.players.value) : 2;
  const bots = Math.min(Number(form.bots.value) || 0, players - 1);
  const body = {
    name: form.name.value.trim(),
    game: form.game.value,
    players,
    bots: Array.from({ length: bots }, () => ({ kind: form.bot_kind.value })),
    clock: CLOCK_CHOICES[Number(form.clock.value)].clock,
  };
  if (classic) {
    body.wonder_side = form.wonder_side.value;
    if (form.armada.checked && armada.enabled) body.expansions = ["armada"];
  }
  try {
    const room = await api("POST", "/api/rooms", body);
    saveSeat(room.code, room.seat, room.token);
    location.href = roomUrl(room.code);
  } catch (e) {
    error.textContent = e.message;
  }
});

document.getElementById("join-form").addEventListener("submit", (event) => {
  event.preventDefault();
  location.href = roomUrl(event.target.code.value.trim());
});
