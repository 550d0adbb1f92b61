// One game on the page: the server deals and judges it; this shows what it answers.
// The mine counter, the face, the timer with tenths, the end-of-game figures, and
// the click-to-paint time of every move (Performance API, "click-to-paint").

import { ApiError, call } from "./api.js";
import { BoardView } from "./board.js";
import { el, replace, seconds } from "./dom.js";

/** The ladder's game API, as this page calls it. */
export const games = {
  start: (request) => call("POST", "/api/games", request),
  get: (id) => call("GET", `/api/games/${encodeURIComponent(id)}`),
  move: (id, kind, cell, expect) =>
    call("POST", `/api/games/${encodeURIComponent(id)}/moves`, { kind, cell, expect }),
  resign: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/resign`),
  replay: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/replay`),
  aid: (id, kind) => call("POST", `/api/games/${encodeURIComponent(id)}/${kind}`),
};

/** Where each cell is drawn, for a topology as the ladder shows it (fixed grids cached). */
const drawn = new Map();
export async function geometryOf(topology) {
  const fixed = ["square", "hex", "triangle", "parquet"].includes(topology.name);
  const key = `${topology.name} ${topology.rows}x${topology.cols}`;
  if (fixed && drawn.has(key)) return drawn.get(key);
  const geometry = await call("POST", "/api/geometry", topology);
  if (fixed) drawn.set(key, geometry);
  return geometry;
}

/** "row 3, column 5" on printed boards, "node 12" on graphs (1-based, as people count). */
export function namer(topology) {
  if (!topology.layout) return (cell) => `node ${cell}`;
  const where = new Map();
  topology.layout.forEach((line, r) => line.forEach((cell, c) => {
    if (!where.has(cell)) where.set(cell, [r, c]);
  }));
  return (cell) => {
    const [r, c] = where.get(cell) ?? [0, cell];
    return `row ${r + 1}, column ${c + 1}`;
  };
}

/** A face for the restart button, drawn (no emoji font needed): smile, o, cool, dead. */
export function face(mood) {
  const ns = "http://www.w3.org/2000/svg";
  const make = (tag, attrs) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  };
  const root = make("svg", { viewBox: "-10 -10 20 20", width: 26, height: 26, "aria-hidden": "true" });
  root.append(make("circle", { r: 9, fill: "#ffd21f", stroke: "#000", "stroke-width": 1 }));
  if (mood === "dead") {
    root.append(make("path", { d: "M-5,-4l3,3m0,-3l-3,3M2,-4l3,3m0,-3l-3,3", stroke: "#000", "stroke-width": 1.2 }));
    root.append(make("path", { d: "M-4,5q4,-4 8,0", fill: "none", stroke: "#000", "stroke-width": 1.2 }));
  } else if (mood === "cool") {
    root.append(make("path", { d: "M-7,-3h14v1.5l-1.5,2.5h-3.5l-1.5,-2.5h-1l-1.5,2.5h-3.5l-1.5,-2.5z", fill: "#000" }));
    root.append(make("path", { d: "M-4,3q4,4 8,0", fill: "none", stroke: "#000", "stroke-width": 1.2 }));
  } else {
    root.append(make("circle", { cx: -3, cy: -2.5, r: 1.2, fill: "#000" }));
    root.append(make("circle", { cx: 3, cy: -2.5, r: 1.2, fill: "#000" }));
    root.append(mood === "o"
      ? make("circle", { cx: 0, cy: 4, r: 2, fill: "none", stroke: "#000", "stroke-width": 1.2 })
      : make("path", { d: "M-4,3q4,4 8,0", fill: "none", stroke: "#000", "stroke-width": 1.2 }));
  }
  return root;
}

export class Game {
  /**
   * @param {object} parts page elements: board, counter, timer, face, status, stats
   * @param {object} hooks { marks(): ? marks on, ended(game) }
   */
  constructor(parts, hooks) {
    this.parts = parts;
    this.hooks = hooks;
    this.queue = Promise.resolve();
    this.moveTrouble = false; // the status says why a move failed (cleared by the next one)
    this.paints = [];
    this.ticker = null;
    window.addEventListener("mouseup", () => { if (this.board && !this.over) this.setFace("smile"); });
  }

  /** Ask the server for a game as `request` says, and draw it. Until it is drawn the old
   *  board takes no clicks (they would go to the new game with the old cells' numbers). */
  async start(request) {
    this.stopTimer();
    this.board?.disable();
    this.parts.board.dataset.state = "dealing";
    this.showResult(null);
    try {
      await this.abandon();
      const data = await games.start(request);
      await this.load(data);
    } catch (error) {
      if (this.board && this.id && !this.over) this.board.enabled = true; // the game goes on
      this.board?.svg.classList.remove("stale");
      throw error;
    }
  }

  /** Give up the game on the board, if unfinished: the server keeps only a few per player. */
  async abandon() {
    if (!this.id || this.over) return;
    const id = this.id;
    this.id = null;
    this.stopTimer();
    await this.queue;
    await games.resign(id).catch(() => {});
  }

  /** Go on with game `id` (after a reload); false when it is over or not this player's. */
  async resume(id) {
    try {
      const data = await games.get(id);
      if (data.state !== "playing") return false;
      await this.load(data);
      return true;
    } catch {
      return false;
    }
  }

  async load(data) {
    this.stopTimer();
    localStorage.setItem("minesweeper.game", data.id);
    this.data = data;
    this.id = data.id;
    this.moves = data.moves ?? 0;
    this.mode = data.mode ?? "practice";
    this.topology = data.topology;
    this.mines = data.settings?.mines ?? null;
    this.flags = new Set();
    this.startedAt = null;
    this.over = false;
    this.end = null;
    this.assists = new Set((data.assists ?? []).map(([kind]) => kind));
    this.hinted = false; // the status shows a hint (said no more once a move is made)
    const geometry = await geometryOf(this.topology);
    const neighbours = this.topology.neighbours;
    this.board?.destroy();
    this.board = new BoardView(this.parts.board, geometry, {
      neighbours: (cell) => neighbours[cell],
      name: namer(this.topology),
      marks: this.hooks.marks(),
      label: `${data.category ?? "Minesweeper"} board`,
      onAction: (kind, cell) => this.act(kind, cell),
    });
    this.board.svg.addEventListener("mousedown", (e) => {
      if (!this.over && e.button === 0) this.setFace("o");
    });
    this.setFace("smile");
    replace(this.parts.stats);
    this.parts.stats.hidden = true;
    this.parts.board.dataset.state = "playing";
    this.parts.board.dataset.game = this.id;
    this.showTime(0);
    // Last, so that a game found over (a resync) ends as one played to its end does.
    this.apply(data, true);
    if (data.started && !data.end) this.startTimer(data.ms ?? 0);
    this.showCounter();
  }

  /** Send one move; moves go one after another, in the order they were made. */
  act(kind, cell) {
    if (this.over || !this.id) return;
    const clicked = performance.now();
    if (kind === "flag" || kind === "unflag") {
      // Shown at once; the server keeps the flag too (its clicks count, chords use it).
      if (kind === "flag") this.flags.add(cell);
      else this.flags.delete(cell);
      this.board.show(cell, kind === "flag" ? "flagged" : "closed");
      this.showCounter();
    }
    const id = this.id;
    this.queue = this.queue.then(async () => {
      if (this.id !== id || this.over) return;
      try {
        // The server toggles a flag: "flag" both puts and lifts one (and counts a right
        // click on an opened cell, which changes nothing).
        const sent = kind === "unflag" || kind === "right" ? "flag" : kind;
        const answer = await games.move(id, sent, cell, this.moves);
        performance.measure("click-to-answer", { start: clicked, end: performance.now() });
        if (this.id !== id) return;
        this.moves = answer.number ?? this.moves + 1;
        if (this.startedAt === null && sent !== "flag" && (answer.opened.length || answer.end)) {
          this.startTimer(answer.ms ?? 0);
        }
        // It went through: what went wrong, or the hint it followed, is over.
        if (this.moveTrouble || this.hinted) this.say("");
        this.moveTrouble = false;
        this.hinted = false;
        this.apply(answer);
        this.measure(clicked);
      } catch (error) {
        this.say(error.message, true);
        this.moveTrouble = true;
        // A move refused as stale (another tab, or an answer lost on the way) or one that
        // never arrived: show the game as the server keeps it, when it can be reached.
        if (error instanceof ApiError && (error.status === 409 || error.status === 0)) {
          if (await this.resync(id)) this.say("The game is shown again as the server keeps it.");
        }
      }
    });
  }

  /** Draw game `id` again as the server has it; false (left as it is) if it cannot be. */
  async resync(id) {
    let data;
    try {
      data = await games.get(id);
    } catch {
      return false;
    }
    if (this.id !== id) return false;
    await this.load(data);
    return true;
  }

  /** Show what the server answered: cells opened, flags, and the end of the game. */
  apply(answer, initial = false) {
    for (const [cell, count] of answer.opened ?? []) {
      this.board.show(cell, "opened", count);
      this.flags.delete(cell);
    }
    // Flags are the page's to show as they are placed; the server's list only on loading.
    if (initial && answer.flags) {
      const flags = new Set(answer.flags);
      for (const cell of this.flags) {
        if (!flags.has(cell) && this.board.states[cell] === "flagged") this.board.show(cell, "closed");
      }
      for (const cell of flags) if (this.board.states[cell] === "closed") this.board.show(cell, "flagged");
      this.flags = flags;
    }
    this.showCounter();
    if (answer.end) this.finish(answer.end);
  }

  finish(end) {
    this.over = true;
    this.end = end;
    this.stopTimer();
    const board = this.board;
    const mines = new Set(end.mines ?? []);
    const exploded = new Set(end.exploded ?? []);
    const wrong = new Set(end.wrong_flags ?? []);
    for (const cell of mines) {
      if (exploded.has(cell)) board.show(cell, "exploded");
      else if (board.states[cell] !== "flagged") board.show(cell, end.won ? "flagged" : "mine");
    }
    for (const cell of wrong) board.show(cell, "wrong_flag");
    if (end.won) {
      for (const cell of mines) this.flags.add(cell);
    }
    board.clearOverlay();
    this.showCounter();
    this.showTime(end.ms ?? 0);
    this.setFace(end.won ? "cool" : "dead");
    this.parts.board.dataset.state = end.won ? "won" : "lost";
    if (this.hinted || !this.parts.status.classList.contains("error")) this.say("");
    this.hinted = false;
    this.showStats(end);
    this.showResult(end);
    this.hooks.ended(this);
  }

  /** The result in one line over the board, where it is in view whatever the board's size
   *  (the figures' box below may be off screen); `end` null hides it. */
  showResult(end, extra = "") {
    const line = this.parts.result;
    if (!line) return;
    if (!end) {
      line.hidden = true;
      line.replaceChildren();
      return;
    }
    const s = end.stats ?? {};
    const rate = s.bbbv_per_second === null || s.bbbv_per_second === undefined
      ? "" : `, ${Number(s.bbbv_per_second).toFixed(2)} 3BV/s`;
    const help = this.assists.size ? " (assisted)" : "";
    line.className = `result ${end.won ? "won" : "lost"}`;
    replace(line,
      el("strong", {}, end.won ? `Won${help} in ${seconds(end.ms ?? 0, 3)} s` : `Lost${help}`),
      `${rate}. `, extra,
      el("a", { href: "#stats", class: "details" }, "Details"));
    line.hidden = false;
  }

  showStats(end) {
    const s = end.stats ?? {};
    const clicks = s.clicks ?? {};
    const pct = (v) => (v === null || v === undefined ? "–" : `${Math.round(v * 100)}%`);
    const num = (v, d = 2) => (v === null || v === undefined ? "–" : Number(v).toFixed(d));
    const rows = [
      ["Result", end.won ? "Won" : "Lost"],
      ["Time", `${seconds(end.ms ?? s.ms ?? 0, 3)} s`],
      ["3BV", s.solved_bbbv === s.bbbv ? String(s.bbbv) : `${s.solved_bbbv} of ${s.bbbv}`],
      ["3BV/s", num(s.bbbv_per_second)],
      ["Clicks", `${clicks.total ?? 0} (${clicks.left ?? 0} left, ${clicks.right ?? 0} right, ${clicks.chord ?? 0} chord)`],
      ["Efficiency", pct(s.efficiency)],
    ];
    if (end.points !== undefined) rows.push(["Points", String(end.points)]);
    if (this.assists.size) {
      // The server keeps the help in the game (and its replay); practice only, never ranked.
      rows.push(["Help", `${[...this.assists].join(", ")}: assisted, never ranked`]);
    }
    if (end.rank) rows.push(["Ladder", `#${end.rank} in ${end.category ?? "its category"}`]);
    const table = el("dl", { class: "stats-list" },
      rows.map(([k, v]) => [el("dt", {}, k), el("dd", { "data-stat": k }, v)]));
    const title = `${end.won ? "You won" : "Game over"}${this.assists.size ? " (assisted)" : ""}`;
    replace(this.parts.stats, el("h2", {}, title), table);
    this.parts.stats.hidden = false;
  }

  showCounter() {
    const shown = this.mines === null ? this.flags.size : this.mines - this.flags.size;
    const text = this.mines === null ? `⚑${String(shown).padStart(2, "0")}` : counterDigits(shown);
    this.parts.counter.textContent = text;
    this.parts.counter.setAttribute("aria-label", this.mines === null
      ? `${shown} flags placed` : `${shown} mines left`);
  }

  /** Run the timer from the server's `ms` since the first open. */
  startTimer(ms = 0) {
    this.stopTimer();
    this.startedAt = performance.now() - ms;
    this.ticker = setInterval(() => this.showTime(performance.now() - this.startedAt), 100);
  }

  stopTimer() {
    if (this.ticker !== null) clearInterval(this.ticker);
    this.ticker = null;
  }

  showTime(ms) {
    this.parts.timer.textContent = seconds(Math.min(ms, 999_900), 1).padStart(5, "0");
  }

  setFace(mood) {
    this.parts.face.replaceChildren(face(mood));
    this.parts.face.setAttribute("aria-label", {
      smile: "New game (F2)", o: "New game (F2)", cool: "You won: new game (F2)",
      dead: "You lost: new game (F2)",
    }[mood]);
  }

  say(text, error = false) {
    this.parts.status.textContent = text;
    this.parts.status.classList.toggle("error", error);
  }

  /** The time from the click to the frame that shows its answer (after the next paint). */
  measure(clicked) {
    requestAnimationFrame(() => setTimeout(() => {
      const ms = performance.now() - clicked;
      this.paints.push(ms);
      performance.measure("click-to-paint", { start: clicked, duration: ms });
    }, 0));
  }

  /** A practice aid (odds, hint, computer move), marked as such; the game is then assisted. */
  aid(kind) {
    // In the move queue: an aid never overtakes a click made before it, nor one after.
    const run = this.queue.then(() => this.askAid(kind));
    this.queue = run.catch(() => {});
    return run;
  }

  async askAid(kind) {
    if (this.over || !this.id) return;
    const id = this.id;
    const answer = await games.aid(id, kind);
    if (this.id !== id) return;
    this.assists.add(kind);
    if (kind === "odds") this.board.showOdds(answer.odds);
    else if (kind === "hint") {
      if (answer.cell === null || answer.cell === undefined) this.say("No hint: the game is over or not begun.");
      else {
        this.board.showHint(answer.cell, answer.safe);
        this.board.focus(answer.cell);
        this.say(answer.safe ? "Hint: this cell is safe." : `Hint: the best guess (${Math.round((answer.p ?? 0) * 100)}% a mine).`);
        this.hinted = true;
      }
    } else {
      // The computer's clicks: its flags first, then what its opens revealed.
      for (const move of answer.moves ?? []) {
        if (move.kind === "flag") { this.flags.add(move.cell); this.board.show(move.cell, "flagged"); }
        if (move.kind === "unflag") { this.flags.delete(move.cell); this.board.show(move.cell, "closed"); }
      }
      this.moves += (answer.moves ?? []).length;
      if (this.startedAt === null && (answer.opened?.length || answer.end)) this.startTimer(answer.ms ?? 0);
      this.apply(answer);
    }
  }
}

/** The counter's three digits, as a 7-segment display shows them (negative: -NN). */
function counterDigits(n) {
  if (n < 0) return `-${String(Math.min(99, -n)).padStart(2, "0")}`;
  return String(Math.min(999, n)).padStart(3, "0");
}
