// Turn clocks: a countdown beside every player who owes a decision, and each time bank. Deadlines
// come from the server (ISO times); the page corrects for its own clock with the server's time.
import { icon } from "./icons.js";
import { announce, h } from "./ui.js";

let offset = 0; // server time minus this browser's time, in ms
let ticking = null;
let warned = null; // the deadline already warned about (your move, 10 seconds left)

export function setServerTime(iso) {
  const server = Date.parse(iso);
  if (!Number.isNaN(server)) offset = server - Date.now();
}

function left(deadline) {
  return Math.max(0, (Date.parse(deadline) - (Date.now() + offset)) / 1000);
}

export function clockWords(seconds) {
  const s = Math.ceil(seconds);
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The clock chip of one seat: a countdown while it owes a decision, its time bank otherwise.
export function clockChip(clock, seat, name) {
  if (!clock) return null;
  const deadline = clock.deadlines && clock.deadlines[String(seat)];
  if (deadline) {
    const chip = h("span", { class: "countdown", role: "timer", dataset: { deadline, who: name } }, [
      icon("hourglass", { size: "sm", label: "time left" }), h("span", { class: "t" }),
    ]);
    update(chip);
    return chip;
  }
  const bank = clock.banks && clock.banks[String(seat)];
  if (bank !== undefined) {
    const text = `${name}'s time bank: ${clockWords(bank)}`;
    return h("span", { class: "bank", title: text, "aria-label": text, role: "img" }, [icon("hourglass", { size: "sm", label: "time bank" }), clockWords(bank)]);
  }
  return null;
}

function update(chip) {
  const seconds = left(chip.dataset.deadline);
  const text = clockWords(seconds);
  chip.querySelector(".t").textContent = text;
  chip.setAttribute("aria-label", `${chip.dataset.who}: ${text} left to decide`);
  chip.title = `${chip.dataset.who} has ${text} to decide; then a bot decides for them`;
  chip.classList.toggle("low", seconds <= 10);
}

// Keep every countdown on the page running; warn once when your own move has 10 seconds left.
export function startTicking(mine) {
  if (ticking) clearInterval(ticking);
  ticking = setInterval(() => {
    for (const chip of document.querySelectorAll(".countdown[data-deadline]")) update(chip);
    const own = mine();
    if (own && left(own) <= 10 && warned !== own) {
      warned = own;
      announce("10 seconds left for your move.");
    }
  }, 500);
}

// The room's clock setting in words, for the room panel.
export function settingWords(clock) {
  if (!clock || clock.mode === "off") return "no turn clock";
  if (clock.mode === "turn") return `${clockWords(clock.seconds)} for each decision`;
  return `a time bank of ${clockWords(clock.initial_seconds)}, plus ${clock.increment_seconds} s a decision`;
}

// The host's choices of clock (the server accepts any within its bounds; these are the usual ones).
export const CLOCK_CHOICES = [
  { label: "No turn clock", clock: { mode: "off" } },
  { label: "30 s for each decision", clock: { mode: "turn", seconds: 30 } },
  { label: "1 min for each decision", clock: { mode: "turn", seconds: 60 } },
  { label: "2 min for each decision", clock: { mode: "turn", seconds: 120 } },
  { label: "Time bank: 5 min + 10 s a decision", clock: { mode: "bank", initial_seconds: 300, increment_seconds: 10 } },
  { label: "Time bank: 10 min + 20 s a decision", clock: { mode: "bank", initial_seconds: 600, increment_seconds: 20 } },
  { label: "Slow game: 24 h for each decision", clock: { mode: "turn", seconds: 86400 } },
];

export function sameClock(a, b) {
  return JSON.stringify(a || { mode: "off" }) === JSON.stringify(b || { mode: "off" });
}
