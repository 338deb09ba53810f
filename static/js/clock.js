// Turn clocks: a countdown beside every player who owes a decision, and each time bank. Deadlines
// come from the server (ISO times); the page corrects for its own clock with the server's time. A
// room's pace is live (everyone at the table now) or turn-based (an hour to 7 days a decision, or a
// time bank of days): a turn-based seat's chip says when its move is due ("due in 14 h 05 min"), and
// once a deadline has passed before the server decided (a game woken from the database, a bot still
// thinking), what happens next.
import { icon } from "./icons.js";
import { announce, h, plural } from "./ui.js";

let offset = 0; // server time minus this browser's time, in ms
let ticking = null;
let warned = null; // the deadline already warned about (your move, 10 seconds left)
let policy = { bot: "greedy", before: 2 }; // the room's timeout_bot and timeouts_before_bot

export function setServerTime(iso) {
  const server = Date.parse(iso);
  if (!Number.isNaN(server)) offset = server - Date.now();
}

// What happens on timeout in this room (its settings' timeout_bot and timeouts_before_bot).
export function setTimeoutPolicy(settings) {
  if (!settings) return;
  policy = { bot: settings.timeout_bot || "greedy", before: settings.timeouts_before_bot || 2 };
}

// When a seat came to owe its decision (the clock's `since`) is never later than the server's now: a
// lower bound of the server's time, which corrects an offset measured on a welcome that reached the
// page late, so a countdown never shows more time than the clock or the bank gives.
function serverNowAtLeast(ms) {
  offset = Math.max(offset, ms - Date.now());
}

function left(deadline) {
  return Math.max(0, (Date.parse(deadline) - (Date.now() + offset)) / 1000);
}

const DAY = 86400;
const HOUR = 3600;

// Time left, as a countdown says it: "2 d 4 h", "14 h 05 min", "4:59".
export function clockWords(seconds) {
  const s = Math.ceil(seconds);
  if (s >= DAY) {
    const hours = Math.floor((s % DAY) / HOUR);
    return `${Math.floor(s / DAY)} d${hours ? ` ${hours} h` : ""}`;
  }
  if (s >= HOUR) return `${Math.floor(s / HOUR)} h ${String(Math.floor((s % HOUR) / 60)).padStart(2, "0")} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// A setting's span of time in words: "30 s", "2 min", "1 hour", "12 hours", "1 day", "7 days".
export function spanWords(seconds) {
  if (seconds >= DAY && seconds % DAY === 0) return plural(seconds / DAY, "day");
  if (seconds >= HOUR && seconds % HOUR === 0) return plural(seconds / HOUR, "hour");
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} min`;
  if (seconds < 60) return `${seconds} s`;
  return clockWords(seconds);
}

// A clock's pace, as the server says it (settings.pace, clock.pace), or from the clock itself.
export function paceOf(clock, pace) {
  if (pace) return pace;
  if (!clock || clock.mode === "off") return "live";
  const longest = clock.mode === "turn" ? clock.seconds : clock.initial_seconds;
  return longest >= HOUR ? "turn_based" : "live";
}

// What happens once a seat's time is up, in words ("them" or "you").
export function overdueWords(whom = "them") {
  const their = whom === "you" ? "your" : "their";
  const back = whom === "you" ? "you are" : "they are";
  return `overdue: the ${policy.bot} bot decides for ${whom} shortly; after ${plural(policy.before, "timeout")} in a row it plays ${their} seat until ${back} back`;
}

// The clock chip of one seat: a countdown while it owes a decision, its time bank otherwise.
export function clockChip(clock, seat, name) {
  if (!clock) return null;
  const deadline = clock.deadlines && clock.deadlines[String(seat)];
  if (deadline) {
    const since = clock.since && clock.since[String(seat)];
    if (since) serverNowAtLeast(Date.parse(since));
    const pace = paceOf(clock, clock.pace);
    const chip = h("span", { class: `countdown ${pace === "turn_based" ? "turn-based" : "live"}`, role: "timer", dataset: { deadline, who: name, pace } }, [
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
  const who = chip.dataset.who;
  const you = who === "You";
  let text;
  let label;
  if (seconds <= 0) { // the deadline passed and the server has not decided yet
    const next = overdueWords(you ? "you" : "them");
    text = next.slice(0, next.indexOf(";"));
    label = `${who}: ${next}`;
  } else if (chip.dataset.pace === "turn_based") {
    text = `due in ${clockWords(seconds)}`;
    label = `${who}: ${you ? "your" : "their"} move is ${text}`;
  } else {
    text = clockWords(seconds);
    label = `${who}: ${text} left to decide`;
  }
  chip.querySelector(".t").textContent = text;
  chip.setAttribute("aria-label", label);
  chip.title = seconds <= 0 ? label : `${label}; then the ${policy.bot} bot decides for ${you ? "you" : "them"}`;
  chip.classList.toggle("low", seconds <= 10);
  chip.classList.toggle("overdue", seconds <= 0);
}

// Keep every countdown on the page running; warn once when your own move has 10 seconds left.
export function startTicking(mine) {
  if (ticking) clearInterval(ticking);
  ticking = setInterval(() => {
    for (const chip of document.querySelectorAll(".countdown[data-deadline]")) update(chip);
    const own = mine();
    if (own && left(own) <= 10 && left(own) > 0 && warned !== own) {
      warned = own;
      announce("10 seconds left for your move.");
    }
  }, 500);
}

// The room's pace and clock in words, for the room panel: "Live: 30 s for each decision",
// "Turn-based: 1 day for each decision", "Turn-based: a time bank of 3 days, plus 12 hours a decision".
export function settingWords(clock, pace) {
  const word = paceOf(clock, pace) === "turn_based" ? "Turn-based" : "Live";
  if (!clock || clock.mode === "off") return `${word}: no turn clock`;
  if (clock.mode === "turn") return `${word}: ${spanWords(clock.seconds)} for each decision`;
  const plus = clock.increment_seconds ? `, plus ${spanWords(clock.increment_seconds)} a decision` : "";
  return `${word}: a time bank of ${spanWords(clock.initial_seconds)}${plus}`;
}

// The host's choices of pace (the server accepts any clock within its bounds; these are the usual
// ones), in two groups.
export const PACES = [
  { label: "Live: everyone at the table now", pace: "live" },
  { label: "Turn-based: move when you can, over days", pace: "turn_based" },
];
export const CLOCK_CHOICES = [
  { pace: "live", label: "No turn clock", clock: { mode: "off" } },
  { pace: "live", label: "30 s for each decision", clock: { mode: "turn", seconds: 30 } },
  { pace: "live", label: "1 min for each decision", clock: { mode: "turn", seconds: 60 } },
  { pace: "live", label: "2 min for each decision", clock: { mode: "turn", seconds: 120 } },
  { pace: "live", label: "Time bank: 5 min + 10 s a decision", clock: { mode: "bank", initial_seconds: 300, increment_seconds: 10 } },
  { pace: "live", label: "Time bank: 10 min + 20 s a decision", clock: { mode: "bank", initial_seconds: 600, increment_seconds: 20 } },
  { pace: "turn_based", label: "1 hour for each decision", clock: { mode: "turn", seconds: HOUR } },
  { pace: "turn_based", label: "12 hours for each decision", clock: { mode: "turn", seconds: 12 * HOUR } },
  { pace: "turn_based", label: "1 day for each decision", clock: { mode: "turn", seconds: DAY } },
  { pace: "turn_based", label: "3 days for each decision", clock: { mode: "turn", seconds: 3 * DAY } },
  { pace: "turn_based", label: "7 days for each decision", clock: { mode: "turn", seconds: 7 * DAY } },
  { pace: "turn_based", label: "Time bank: 3 days + 12 hours a decision", clock: { mode: "bank", initial_seconds: 3 * DAY, increment_seconds: 12 * HOUR } },
  { pace: "turn_based", label: "Time bank: 7 days + 1 day a decision", clock: { mode: "bank", initial_seconds: 7 * DAY, increment_seconds: DAY } },
];

// The choices as a select's option groups (each option's value: its index in CLOCK_CHOICES).
export function clockOptions() {
  return PACES.map((p) => h("optgroup", { label: p.label }, CLOCK_CHOICES
    .map((c, i) => [c, i]).filter(([c]) => c.pace === p.pace)
    .map(([c, i]) => h("option", { value: String(i) }, [c.label]))));
}

export function sameClock(a, b) {
  return JSON.stringify(a || { mode: "off" }) === JSON.stringify(b || { mode: "off" });
}

// Mark the page while the status line (with your countdown) is out of view under the sticky header,
// so the header shows your countdown instead. The header grows and shrinks (the game's turn line, a
// phone's wrapped rows), so what counts as out of view is measured again whenever it does.
export function watchStatusLine(status) {
  const header = document.querySelector(".top");
  let observer = null;
  const observe = () => {
    observer?.disconnect();
    const margin = header ? header.offsetHeight : 0;
    observer = new IntersectionObserver(([entry]) => {
      document.body.classList.toggle("status-away", !entry.isIntersecting);
    }, { rootMargin: `-${margin}px 0px 0px 0px` });
    observer.observe(status);
  };
  observe();
  if (header) new ResizeObserver(observe).observe(header);
}
