// The front page: create a private room, or open one by its code.
import { api, roomUrl, saveSeat } from "./api.js";

const error = document.getElementById("error");
const create = document.getElementById("create-form");

function showKind() {
  const classic = create.game.value === "classic";
  for (const el of create.querySelectorAll(".classic-only")) el.hidden = !classic;
}
create.game.addEventListener("change", showKind);
showKind();

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
  };
  if (classic) {
    body.wonder_side = form.wonder_side.value;
    if (form.armada.checked) body.expansions = ["armada"];
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
