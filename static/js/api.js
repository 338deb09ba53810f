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

const key = (code) => `wonders.seat.${code.toUpperCase()}`;

export function savedSeat(code) {
  try { return JSON.parse(localStorage.getItem(key(code))); } catch { return null; }
}

export function saveSeat(code, seat, token) {
  localStorage.setItem(key(code), JSON.stringify({ seat, token }));
}

export function forgetSeat(code) {
  localStorage.removeItem(key(code));
}

export function roomUrl(code) {
  return `/room.html?code=${encodeURIComponent(code.toUpperCase())}`;
}
