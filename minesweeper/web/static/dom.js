// Building the page's elements. Text always goes in as text (never as HTML), so a
// player's name or any text from the server is shown as it is, never run.

const SVG = "http://www.w3.org/2000/svg";

/** An HTML element: `attrs` set as attributes (on* as listeners), `children` appended
 *  (strings as text nodes). */
export function el(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, as `el`. */
export function svg(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

function fill(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      node.addEventListener(name.slice(2), value);
    } else {
      node.setAttribute(name, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

/** Replace everything inside `node` with `children`. */
export function replace(node, ...children) {
  node.replaceChildren();
  fill(node, {}, children);
  return node;
}

/** `ms` as seconds with `places` decimals (the timer shows tenths). */
export function seconds(ms, places = 1) {
  return (ms / 1000).toFixed(places);
}
