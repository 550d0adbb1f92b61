// The board as SVG: every cell drawn as its real shape from the server's geometry
// (polygons, or a graph's nodes with straight links), and the mouse, touch and
// keyboard controls serious players expect. It knows no rules: it reports what
// the player did (`onAction(kind, cell)`) and shows what it is told (`show`).

import { svg } from "./dom.js";

/** Colours of the numbers 1.. (the usual ones, darkened where needed for contrast). */
export const NUMBER_COLOURS = [
  null, "#0000e0", "#006400", "#c00000", "#000080", "#800000", "#006b6b", "#000000",
  "#5a5a5a", "#8b4513", "#6a0dad", "#b00060", "#3d3d00",
];
/** Space around the board, in cell units. */
const PAD = 0.12;
/** A touch held this long flags. */
const LONG_PRESS_MS = 400;
/** Mouse events this soon after a touch are the browser's copies of it. */
const TOUCH_GRACE_MS = 800;

let boards = 0;

/** What a cell shows, for people using a screen reader. */
export function describe(state, count, marked) {
  if (state === "opened") return count ? String(count) : "empty";
  if (state === "closed") return marked ? "question mark" : "hidden";
  return {
    flagged: "flagged", exploded: "mine that went off", mine: "mine",
    wrong_flag: "wrong flag",
  }[state] ?? state;
}

export class BoardView {
  /**
   * @param {Element} host where the SVG goes
   * @param {object} geometry the server's geometry JSON
   * @param {object} options { neighbours: cell -> ids, name(cell) -> "row 1, column 2",
   *   onAction(kind, cell) or null (a replay: no input), marks: whether ? marks are on,
   *   label: the board's accessible name }
   */
  constructor(host, geometry, options) {
    this.host = host;
    this.geometry = geometry;
    this.options = options;
    this.id = `b${++boards}`;
    const size = geometry.centres.length;
    this.size = size;
    this.states = new Array(size).fill("closed");
    this.counts = new Array(size).fill(null);
    this.marked = new Set();
    this.pressed = new Set();
    this.odds = new Map(); // cell -> mine probability, while the odds are shown
    this.focusCell = 0;
    this.enabled = Boolean(options.onAction);
    this.listening = new AbortController(); // the window's listeners, removed by destroy()
    this.build();
    if (this.enabled) this.bindInput();
  }

  /** Take no more input: the board is on its way out (a new game is being dealt). */
  disable() {
    this.enabled = false;
    this.press(null);
    this.svg.classList.add("stale");
    this.svg.setAttribute("aria-disabled", "true");
  }

  /** Disable the board and remove what it listens to outside itself (the window). */
  destroy() {
    this.disable();
    this.listening.abort();
  }

  // -- drawing ------------------------------------------------------------------------

  build() {
    const g = this.geometry;
    const graph = g.polygons === null;
    const defs = svg("defs", {}, glyphs(this.id));
    const links = svg("g", { class: "links", "aria-hidden": "true" });
    const cells = svg("g", { class: "cells", role: "grid", "aria-label": this.options.label });
    const row = svg("g", { role: "row" });
    cells.append(row);
    this.cellNodes = [];
    this.marks = [];
    for (const [u, v] of g.links) {
      const [x1, y1] = g.centres[u];
      const [x2, y2] = g.centres[v];
      links.append(svg("line", { x1, y1, x2, y2 }));
    }
    const bevel = Math.max(g.inner * 0.32, 0.12);
    for (let cell = 0; cell < this.size; cell++) {
      const [cx, cy] = g.centres[cell];
      const node = svg("g", {
        class: "cell closed", "data-cell": cell, role: "gridcell", tabindex: cell === 0 ? 0 : -1,
        "aria-label": this.label(cell),
      });
      if (graph) {
        node.append(svg("circle", { class: "face", cx, cy, r: g.inner }));
        node.append(svg("circle", {
          class: "rim", cx, cy, r: g.inner - bevel / 4, "stroke-width": bevel / 2,
        }));
      } else {
        const points = g.polygons[cell].map((p) => p.join(",")).join(" ");
        const shape = `${this.id}p${cell}`;
        defs.append(svg("polygon", { id: shape, points }));
        defs.append(svg("clipPath", { id: `${shape}k` }, svg("use", { href: `#${shape}` })));
        const [light, dark] = bevelPaths(g.polygons[cell]);
        node.append(svg("use", { class: "face", href: `#${shape}` }));
        node.append(svg("path", {
          class: "light", d: light, "clip-path": `url(#${shape}k)`, "stroke-width": bevel,
        }));
        node.append(svg("path", {
          class: "dark", d: dark, "clip-path": `url(#${shape}k)`, "stroke-width": bevel,
        }));
      }
      const mark = svg("g", { class: "mark", "aria-hidden": "true" });
      node.append(mark);
      row.append(node);
      this.cellNodes.push(node);
      this.marks.push(mark);
    }
    this.overlay = svg("g", { class: "overlay", "aria-hidden": "true" });
    this.ring = svg("g", { class: "focus-ring", "aria-hidden": "true" });
    const width = g.width + 2 * PAD;
    const height = g.height + 2 * PAD;
    this.svg = svg("svg", {
      class: graph ? "board graph" : "board",
      viewBox: `${-PAD} ${-PAD} ${width} ${height}`,
      "data-width": width, "data-height": height,
    }, defs, links, cells, this.overlay, this.ring);
    this.host.replaceChildren(this.svg);
    this.fit();
  }

  /** Size the drawing for the room the window has: cells 18 to 40 pixels across. */
  fit() {
    const g = this.geometry;
    const across = 2 * g.inner; // units across the room a cell's content has
    const wide = (window.innerWidth - 56) / (g.width + 2 * PAD);
    const tall = (window.innerHeight - 250) / (g.height + 2 * PAD);
    const scale = Math.min(40 / across, Math.max(18 / across, Math.min(wide, tall)));
    this.svg.setAttribute("width", ((g.width + 2 * PAD) * scale).toFixed(0));
    this.svg.setAttribute("height", ((g.height + 2 * PAD) * scale).toFixed(0));
  }

  /** Where `cell`'s centre is on the screen (client pixels): where a click on it lands. */
  point(cell) {
    const [x, y] = this.geometry.centres[cell];
    const m = this.svg.getScreenCTM();
    return [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
  }

  label(cell) {
    const where = this.options.name ? this.options.name(cell) : `cell ${cell}`;
    const shown = describe(this.states[cell], this.counts[cell], this.marked.has(cell));
    const odds = this.odds.has(cell) ? `, ${oddsWords(this.odds.get(cell))}` : "";
    return `${where}, ${shown}${odds}`;
  }

  /** Show `state` (closed, opened, flagged, exploded, mine, wrong_flag) on `cell`. */
  show(cell, state, count = null) {
    this.states[cell] = state;
    this.counts[cell] = state === "opened" ? count : null;
    if (state !== "closed") this.marked.delete(cell);
    this.repaint(cell);
  }

  /** Put or take a ? mark on a closed cell (the page's own: the server never sees it). */
  mark(cell, on) {
    if (on) this.marked.add(cell);
    else this.marked.delete(cell);
    this.repaint(cell);
  }

  repaint(cell) {
    const state = this.states[cell];
    const node = this.cellNodes[cell];
    const pressed = this.pressed.has(cell) && state === "closed" && !this.marked.has(cell);
    node.setAttribute("class", `cell ${pressed ? "pressed" : state}`);
    node.setAttribute("aria-label", this.label(cell));
    const mark = this.marks[cell];
    mark.replaceChildren();
    const [cx, cy] = this.geometry.centres[cell];
    const s = this.geometry.inner;
    const glyph = (name) => svg("use", {
      href: `#${this.id}-${name}`, transform: `translate(${cx} ${cy}) scale(${this.glyphSize(cell)})`,
    });
    if (state === "opened" && this.counts[cell]) {
      const count = this.counts[cell];
      mark.append(svg("text", {
        x: cx, y: cy, "font-size": s * 1.45, fill: NUMBER_COLOURS[count] ?? "#000",
        class: "number",
      }, String(count)));
    } else if (state === "flagged") {
      mark.append(glyph("flag"));
    } else if (state === "mine" || state === "exploded") {
      mark.append(glyph("mine"));
    } else if (state === "wrong_flag") {
      mark.append(glyph("mine"), glyph("cross"));
    } else if (state === "closed" && this.marked.has(cell)) {
      mark.append(svg("text", { x: cx, y: cy, "font-size": s * 1.45, class: "question" }, "?"));
    }
  }

  /** Show every cell closed again (a replay going back). */
  reset() {
    this.marked.clear();
    for (let cell = 0; cell < this.size; cell++) this.show(cell, "closed");
    this.clearOverlay();
  }

  /** The half-size of a flag or mine drawn on `cell`: a triangle's inscribed circle is
   *  small for its area, so its glyphs are drawn larger than the circle. */
  glyphSize(cell) {
    const polygon = this.geometry.polygons?.[cell];
    return this.geometry.inner * (polygon && polygon.length === 3 ? 1.3 : 0.82);
  }

  /** Show each closed cell's mine probability (`odds[cell]` in 0..1, or null) on it, readable
   *  without a hover: a proved-safe cell green with ✓, a proved mine dark red with !, any
   *  other its percentage on a blue (unlikely) to red (likely) scale. */
  showOdds(odds) {
    this.clearOverlay();
    const g = this.geometry;
    odds.forEach((p, cell) => {
      if (p === null || p === undefined || this.states[cell] !== "closed") return;
      this.odds.set(cell, p);
      const [cx, cy] = g.centres[cell];
      const shape = g.polygons === null
        ? svg("circle", { cx, cy, r: g.inner * 0.9 })
        : svg("use", { href: `#${this.id}p${cell}` });
      const { fill, ink, text } = oddsLook(p);
      shape.setAttribute("class", "odds");
      shape.setAttribute("fill", fill);
      shape.append(svg("title", {}, `${this.options.name ? this.options.name(cell) : cell}: ${oddsWords(p)}`));
      const size = g.inner * (text.length > 1 ? 1.05 : 1.3);
      const label = svg("text", { x: cx, y: cy, "font-size": size, fill: ink, class: "odds-text" }, text);
      this.overlay.append(svg("g", { class: "odds-cell", "data-cell": cell }, shape, label));
      this.cellNodes[cell].setAttribute("aria-label", this.label(cell));
    });
    this.overlay.classList.add("shown");
  }

  /** Ring `cell` as the hint's move (`safe`: a sure safe cell; else the best guess). */
  showHint(cell, safe) {
    this.clearOverlay();
    const g = this.geometry;
    const ring = g.polygons === null
      ? svg("circle", { cx: g.centres[cell][0], cy: g.centres[cell][1], r: g.inner })
      : svg("use", { href: `#${this.id}p${cell}` });
    ring.setAttribute("class", safe ? "hint safe" : "hint guess");
    ring.setAttribute("stroke-width", g.inner * 0.25);
    this.overlay.append(ring);
  }

  clearOverlay() {
    this.overlay.replaceChildren();
    const shown = [...this.odds.keys()];
    this.odds.clear();
    for (const cell of shown) this.cellNodes[cell].setAttribute("aria-label", this.label(cell));
  }

  // -- input --------------------------------------------------------------------------

  bindInput() {
    const board = this.svg;
    this.buttons = 0;
    this.chording = false;
    this.swallow = 0;
    this.lastTouch = -Infinity;
    board.addEventListener("contextmenu", (e) => e.preventDefault());
    board.addEventListener("mousedown", (e) => this.mouseDown(e));
    window.addEventListener("mouseup", (e) => this.mouseUp(e), { signal: this.listening.signal });
    board.addEventListener("mousemove", (e) => this.mouseMove(e));
    board.addEventListener("mouseleave", () => this.press(null));
    board.addEventListener("auxclick", (e) => e.preventDefault());
    board.addEventListener("pointerdown", (e) => this.touchDown(e));
    board.addEventListener("pointerup", (e) => this.touchUp(e));
    board.addEventListener("pointercancel", () => this.touchCancel());
    board.addEventListener("keydown", (e) => this.key(e));
    board.addEventListener("focusin", (e) => {
      const cell = this.cellOf(e.target);
      if (cell !== null) this.focus(cell, false);
    });
  }

  /** The cell an event's target shows: a cell, or the odds drawn over one. */
  cellOf(target) {
    const node = target && target.closest ? target.closest(".cell, .odds-cell") : null;
    return node ? Number(node.dataset.cell) : null;
  }

  act(kind, cell) {
    if (cell === null || cell === undefined || !this.enabled) return;
    this.options.onAction(kind, cell);
  }

  /** What a left click (or a tap, or space) does: chord a satisfied number, else open. */
  primary(cell) {
    if (this.states[cell] === "opened") {
      if (this.counts[cell] && this.flagsAround(cell) === this.counts[cell]) this.act("chord", cell);
      else this.act("open", cell);
    } else if (this.states[cell] === "closed" && !this.marked.has(cell)) {
      this.act("open", cell);
    } else {
      this.act("open", cell); // on a flag or a ?: does nothing, but it was a click
    }
  }

  /** What a right click (or a long press, or f) does: flag, then ? (if marks are on), then clear. */
  secondary(cell) {
    const state = this.states[cell];
    if (state === "flagged") {
      this.act("unflag", cell);
      if (this.options.marks) this.mark(cell, true);
    } else if (state === "closed" && this.marked.has(cell)) {
      this.mark(cell, false);
    } else if (state === "closed") {
      this.act("flag", cell);
    } else {
      this.act("right", cell); // on an opened cell: changes nothing, but it was a click
    }
  }

  flagsAround(cell) {
    return this.options.neighbours(cell).filter((o) => this.states[o] === "flagged").length;
  }

  /** Show `cell` pressed down (and, chording, its closed neighbours); null lifts all. */
  press(cell, chord = false) {
    const now = new Set();
    if (cell !== null && cell !== undefined) {
      now.add(cell);
      if (chord) for (const other of this.options.neighbours(cell)) now.add(other);
    }
    const before = this.pressed;
    this.pressed = now;
    for (const other of before) if (!now.has(other)) this.repaint(other);
    for (const other of now) if (!before.has(other)) this.repaint(other);
  }

  mouseDown(e) {
    if (!this.enabled || performance.now() - this.lastTouch < TOUCH_GRACE_MS) return;
    const cell = this.cellOf(e.target);
    this.buttons = e.buttons;
    if (cell === null) return;
    if (e.button === 1) e.preventDefault(); // no autoscroll
    const both = (e.buttons & 3) === 3;
    if (e.button === 1 || both) {
      this.chording = true;
      this.press(cell, true);
    } else if (e.button === 0) {
      this.press(cell);
    } else if (e.button === 2) {
      this.secondary(cell);
    }
    this.focus(cell, false);
  }

  mouseMove(e) {
    if (!(e.buttons & 5)) return;
    const cell = this.cellOf(e.target);
    this.press(cell, this.chording);
  }

  mouseUp(e) {
    if (!this.enabled || performance.now() - this.lastTouch < TOUCH_GRACE_MS) return;
    const cell = this.svg.contains(e.target) ? this.cellOf(e.target) : null;
    const wasPressed = this.pressed.size > 0;
    this.press(null);
    if (this.swallow > 0) {
      // The other button of a left+right chord, let go after it: already done.
      this.swallow = e.buttons & 3 ? this.swallow : 0;
      return;
    }
    if (this.chording) {
      this.chording = false;
      if (e.buttons & 3) this.swallow = 1;
      if (cell !== null) this.act("chord", cell);
      return;
    }
    if (e.button === 0 && wasPressed && cell !== null) this.primary(cell);
  }

  touchDown(e) {
    if (e.pointerType !== "touch") return;
    this.lastTouch = performance.now();
    const cell = this.cellOf(e.target);
    if (cell === null) return;
    this.touchCell = cell;
    this.longPressed = false;
    this.press(cell);
    clearTimeout(this.touchTimer);
    this.touchTimer = setTimeout(() => {
      this.longPressed = true;
      this.press(null);
      if (navigator.vibrate) navigator.vibrate(30);
      this.secondary(cell);
    }, LONG_PRESS_MS);
  }

  touchUp(e) {
    if (e.pointerType !== "touch") return;
    this.lastTouch = performance.now();
    clearTimeout(this.touchTimer);
    this.press(null);
    if (!this.longPressed && this.touchCell !== null && this.touchCell !== undefined) {
      this.primary(this.touchCell);
    }
    this.touchCell = null;
  }

  touchCancel() {
    clearTimeout(this.touchTimer);
    this.press(null);
    this.touchCell = null;
  }

  key(e) {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const cell = this.focusCell;
    if (steps[e.key]) {
      e.preventDefault();
      this.focus(this.step(cell, ...steps[e.key]));
    } else if (e.key === " " || e.key === "Enter") {
      e.preventDefault();
      this.primary(cell);
    } else if (e.key === "f" || e.key === "F") {
      e.preventDefault();
      this.secondary(cell);
    } else if (e.key === "c" || e.key === "C") {
      e.preventDefault();
      this.act("chord", cell);
    }
  }

  /** Make `cell` the one the keyboard acts on (and give it focus when `move`). */
  focus(cell, move = true) {
    const before = this.cellNodes[this.focusCell];
    if (before) before.setAttribute("tabindex", -1);
    this.focusCell = cell;
    const node = this.cellNodes[cell];
    node.setAttribute("tabindex", 0);
    if (move) node.focus();
    const g = this.geometry;
    const ring = g.polygons === null
      ? svg("circle", { cx: g.centres[cell][0], cy: g.centres[cell][1], r: g.inner })
      : svg("use", { href: `#${this.id}p${cell}` });
    ring.setAttribute("stroke-width", Math.max(0.08, g.inner * 0.16));
    this.ring.replaceChildren(ring);
  }

  /** The nearest cell whose centre lies within 60 degrees of direction (dx, dy), or `cell`. */
  step(cell, dx, dy) {
    const [x0, y0] = this.geometry.centres[cell];
    let best = null;
    this.geometry.centres.forEach(([x, y], other) => {
      if (other === cell) return;
      const vx = x - x0;
      const vy = y - y0;
      const along = vx * dx + vy * dy;
      const distance = Math.hypot(vx, vy);
      if (along <= 1e-9 || along < distance * 0.5) return;
      const across = Math.sqrt(Math.max(0, distance * distance - along * along));
      const score = along + 2 * across;
      if (best === null || score < best[0] - 1e-9) best = [score, other];
    });
    return best === null ? cell : best[1];
  }
}

/** A closed polygon cell's bevel: the sides facing up and left light, the others dark. */
function bevelPaths(polygon) {
  let light = "";
  let dark = "";
  polygon.forEach(([x1, y1], i) => {
    const [x2, y2] = polygon[(i + 1) % polygon.length];
    // Corners run clockwise on screen, so (dy, -dx) points out of the cell.
    const side = `M${x1},${y1}L${x2},${y2}`;
    if ((y2 - y1) + (x1 - x2) < 0) light += side;
    else dark += side;
  });
  return [light, dark];
}

/** The odds overlay's scale for probabilities strictly between 0 and 1: blue (unlikely)
 *  through pale yellow to red (likely), as the terminal's; no step of it is the proved-safe
 *  green, so a 15% cell never looks like a safe one. */
const ODDS_STOPS = [[0, [44, 123, 182]], [0.5, [255, 255, 191]], [1, [215, 25, 28]]];

/** How a cell of mine probability `p` looks under the odds: fill, ink and text. */
export function oddsLook(p) {
  if (p <= 0) return { fill: "#1a9c3a", ink: "#ffffff", text: "✓" };
  if (p >= 1) return { fill: "#5a0010", ink: "#ffffff", text: "!" };
  const [[low, from], [high, to]] = p <= 0.5 ? [ODDS_STOPS[0], ODDS_STOPS[1]] : [ODDS_STOPS[1], ODDS_STOPS[2]];
  const t = (p - low) / (high - low);
  const [r, g, b] = from.map((value, i) => Math.round(value + (to[i] - value) * t));
  const ink = p >= 0.25 && p <= 0.8 ? "#000000" : "#ffffff";
  return { fill: `rgb(${r} ${g} ${b})`, ink, text: String(Math.min(99, Math.max(1, Math.round(p * 100)))) };
}

/** A mine probability in words: "proved safe", "a mine for certain", "15% mine". */
export function oddsWords(p) {
  if (p <= 0) return "proved safe";
  if (p >= 1) return "a mine for certain";
  return `${Math.min(99, Math.max(1, Math.round(p * 100)))}% mine`;
}

/** The flag, mine and cross glyphs, drawn in a box from -1 to 1 (colours as attributes:
 *  the copies `use` makes of them take no page styles). */
function glyphs(id) {
  return [
    svg("g", { id: `${id}-flag` },
      svg("polygon", { points: "0.18,-0.85 -0.7,-0.42 0.18,0", fill: "#e00000" }),
      svg("rect", { x: 0.08, y: -0.85, width: 0.16, height: 1.35, fill: "#000" }),
      svg("rect", { x: -0.25, y: 0.38, width: 0.75, height: 0.16, fill: "#000" }),
      svg("rect", { x: -0.5, y: 0.52, width: 1.25, height: 0.22, fill: "#000" })),
    svg("g", { id: `${id}-mine` },
      svg("path", {
        d: "M-0.9,0H0.9M0,-0.9V0.9M-0.62,-0.62L0.62,0.62M-0.62,0.62L0.62,-0.62",
        stroke: "#000", "stroke-width": 0.17, fill: "none",
      }),
      svg("circle", { r: 0.6, fill: "#000" }),
      svg("rect", { x: -0.34, y: -0.34, width: 0.2, height: 0.2, fill: "#fff" })),
    svg("g", { id: `${id}-cross` },
      svg("path", {
        d: "M-0.85,-0.85L0.85,0.85M-0.85,0.85L0.85,-0.85",
        stroke: "#e00000", "stroke-width": 0.2, fill: "none", "stroke-linecap": "round",
      })),
  ];
}
