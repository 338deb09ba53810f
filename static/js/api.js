// REST helpers and the seat token kept in this browser, one per room.

export class ApiError extends Error {
  constructor(status, body) {
    const error = (body && body.error) || {};
    super(error.message || `request failed (${status})`);
    this.status = status;
    this.code = error.code;
  }
}

export async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

const PREFIX = "wonders.seat.";
const key = (code) => `${PREFIX}${code.toUpperCase()}`;

export function savedSeat(code) {
  try { return JSON.parse(localStorage.getItem(key(code))); } catch { return null; }
}

export function saveSeat(code, seat, token) {
  localStorage.setItem(key(code), JSON.stringify({ seat, token }));
}

export function forgetSeat(code) {
  localStorage.removeItem(key(code));
}

// Every seat this browser holds: [{code, seat, token}], by room code.
export function heldSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const name = localStorage.key(i);
    if (!name || !name.startsWith(PREFIX)) continue;
    const code = name.slice(PREFIX.length);
    const saved = savedSeat(code);
    if (saved && typeof saved.token === "string" && saved.token) out.push({ code, seat: saved.seat, token: saved.token });
  }
  return out.sort((a, b) => a.code.localeCompare(b.code));
}

export function roomUrl(code) {
  return `/room.html?code=${encodeURIComponent(code.toUpperCase())}`;
}
