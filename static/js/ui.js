// Small DOM helpers shared by every page of the client.

// h("button", {class: "act", type: "button", "aria-label": "…", onclick: f}, ["text", node])
// Keys starting with "on" add listeners; class/text/hidden/value are set directly; style goes through the
// CSSOM (the Content-Security-Policy refuses style attributes); the rest are attributes.
export function h(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "hidden") node.hidden = Boolean(value);
    else if (key === "value") node.value = value;
    else if (key === "checked") node.checked = Boolean(value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "style") node.style.cssText = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false || child === "") continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const $ = (id) => document.getElementById(id);

export function plural(n, one, many = `${one}s`) {
  return `${n} ${Math.abs(n) === 1 ? one : many}`;
}

export function signed(n) {
  return n > 0 ? `+${n}` : `${n}`;
}

// "A, B and C"
export function listWords(items) {
  const xs = items.filter(Boolean);
  if (xs.length <= 1) return xs.join("");
  return `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`;
}

export function capitalise(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

export function words(id) {
  return String(id).replaceAll("_", " ");
}

const ROMAN = ["", "I", "II", "III"];
export function ageName(age) {
  return `Age ${ROMAN[age] || age}`;
}

// A polite live region: screen readers announce what is put in it.
export function announce(text) {
  const region = $("announcer");
  if (!region || !text) return;
  region.textContent = "";
  setTimeout(() => { region.textContent = text; }, 30);
}

// A disclosure that remembers whether the player opened or closed it (per browser).
export function remembered(details, key) {
  const save = (open) => sessionStorage.setItem(`wonders.open.${key}`, open ? "1" : "0");
  const stored = sessionStorage.getItem(`wonders.open.${key}`);
  if (stored !== null) details.open = stored === "1";
  // saved at the click itself: the toggle event comes a moment later, and a table redrawn in
  // between (another seat's pick) would rebuild the disclosure as it was before the tap
  const summary = details.querySelector(":scope > summary");
  if (summary) summary.addEventListener("click", () => save(!details.open));
  details.addEventListener("toggle", () => save(details.open));
  return details;
}
