// A replay watched in the page: the frames the server computed from the stored
// clicks, shown at their own times (play, pause, step, speed, or drag to any click);
// and a community video (.avf, .rmv, .evf) chosen from the player's files, played alike.

import { call } from "./api.js";
import { BoardView } from "./board.js";
import { el, replace, seconds } from "./dom.js";

const SPEEDS = [0.25, 0.5, 1, 2, 4, 8];
const KIND_NAMES = { open: "open", flag: "flag", unflag: "unflag", chord: "chord" };

export class ReplayView {
  /** `host` gets the player's controls and board; `replay` is the replay JSON. */
  constructor(host) {
    this.host = host;
    this.timer = null;
  }

  async load(replay) {
    this.stop();
    this.show(await call("POST", "/api/replay/frames", JSON.stringify(replay), true));
  }

  /** Show the frames of `data` (the server's playback of a replay or a video). */
  show(data) {
    this.stop();
    this.data = data;
    this.frames = data.frames;
    this.at = 0; // frames shown
    this.speed = 1;
    const boardHost = el("div", { class: "board-host replay-board" });
    this.playButton = el("button", { type: "button", class: "play", onclick: () => this.toggle() }, "Play");
    this.slider = el("input", {
      type: "range", min: 0, max: this.frames.length, value: 0, "aria-label": "Click",
      oninput: () => this.goto(Number(this.slider.value)),
    });
    this.where = el("span", { class: "replay-where", "aria-live": "polite" });
    const speed = el("select", {
      "aria-label": "Speed", onchange: (e) => { this.speed = Number(e.target.value); },
    }, SPEEDS.map((s) => el("option", { value: s, selected: s === 1 }, `${s}×`)));
    const when = data.date ? String(data.date).slice(0, 19).replace("T", " ") + " UTC" : null;
    const who = [data.player, when].filter(Boolean).join(", ");
    const stats = data.stats;
    replace(this.host,
      el("div", { class: "replay-head" },
        el("h2", {}, data.video ? `Video (${data.video.software})` : "Replay"),
        el("p", {}, `${who || "unknown player"}: ${data.result.won ? "won" : "lost"} in ${seconds(data.result.ms, 3)} s, `
          + `3BV ${stats.bbbv}, ${stats.bbbv_per_second === null ? "–" : stats.bbbv_per_second.toFixed(3)} 3BV/s, `
          + `${stats.clicks.total} clicks (${stats.clicks.left} left, ${stats.clicks.right} right, ${stats.clicks.chord} chord)`),
        data.video ? el("p", { class: "legend" }, data.video.figures) : null),
      el("div", { class: "replay-controls" },
        el("button", { type: "button", onclick: () => this.goto(0), "aria-label": "To the start" }, "|◀"),
        el("button", { type: "button", onclick: () => this.goto(this.at - 1), "aria-label": "Step back" }, "◀"),
        this.playButton,
        el("button", { type: "button", onclick: () => this.goto(this.at + 1), "aria-label": "Step forward" }, "▶"),
        el("button", { type: "button", onclick: () => this.goto(this.frames.length), "aria-label": "To the end" }, "▶|"),
        speed, this.slider, this.where),
      boardHost);
    this.board = new BoardView(boardHost, data.geometry, {
      neighbours: () => [], name: (cell) => `cell ${cell}`, onAction: null,
      label: "Replay board",
    });
    this.goto(0);
  }

  /** Show the board after the first `n` clicks. */
  goto(n) {
    n = Math.max(0, Math.min(this.frames.length, n));
    if (n < this.at) {
      this.board.reset();
      this.at = 0;
    }
    for (; this.at < n; this.at++) {
      for (const [cell, state, count] of this.frames[this.at].cells) this.board.show(cell, state, count);
    }
    this.board.clearOverlay();
    if (n > 0) {
      const last = this.frames[n - 1];
      this.board.showHint(last.cell, true);
    }
    this.slider.value = String(n);
    const last = n > 0 ? this.frames[n - 1] : null;
    this.where.textContent = last
      ? `click ${n} of ${this.frames.length}: ${KIND_NAMES[last.kind]} at ${seconds(last.ms, 2)} s`
      : `before the first click (${this.frames.length} clicks)`;
    this.host.dataset.at = String(n);
    if (n >= this.frames.length) this.stop();
  }

  toggle() {
    if (this.timer !== null) this.stop();
    else this.play();
  }

  play() {
    if (this.at >= this.frames.length) this.goto(0);
    this.playButton.textContent = "Pause";
    const next = () => {
      if (this.at >= this.frames.length) { this.stop(); return; }
      const before = this.at > 0 ? this.frames[this.at - 1].ms : 0;
      const wait = Math.max(0, (this.frames[this.at].ms - before) / this.speed);
      this.timer = setTimeout(() => { this.goto(this.at + 1); if (this.timer !== null) next(); }, Math.min(wait, 3000));
    };
    this.timer = 0;
    next();
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.playButton) this.playButton.textContent = "Play";
  }
}

/** The accepted video files, by suffix (the server's formats). */
const VIDEO_SUFFIXES = ["avf", "rmv", "evf"];

/** A page to open a community video: Arbiter (.avf), Viennasweeper (.rmv), Metasweeper
 *  (.evf). The file goes to the server, which reads it as the terminal does; its game
 *  plays here like any replay. Nothing is kept. */
export class VideoPicker {
  constructor(host) {
    this.host = host;
    this.view = null;
  }

  show() {
    if (this.host.childElementCount) return; // a video shown stays until another is chosen
    const input = el("input", {
      type: "file", accept: VIDEO_SUFFIXES.map((s) => `.${s}`).join(","), id: "video-file",
      onchange: () => this.open(input.files[0]),
    });
    this.status = el("p", { class: "status", role: "status" });
    this.player = el("div", { class: "video-player" });
    replace(this.host,
      el("h1", {}, "Watch a video"),
      el("p", { class: "note" }, "A game recorded by Arbiter (.avf), Viennasweeper (.rmv) or Metasweeper (.evf), read by ms-toollib, played back here click by click."),
      el("label", { class: "file" }, "Video file ", input),
      this.status, this.player);
    this.view = new ReplayView(this.player);
  }

  async open(file) {
    if (!file) return;
    const suffix = file.name.split(".").pop().toLowerCase();
    if (!VIDEO_SUFFIXES.includes(suffix)) {
      this.say(`${file.name}: not a video of Arbiter (.avf), Viennasweeper (.rmv) or Metasweeper (.evf)`, true);
      return;
    }
    this.say(`Reading ${file.name}…`);
    try {
      const data = await call("POST", `/api/videos/frames?format=${suffix}`, await file.arrayBuffer(), true, "application/octet-stream");
      this.view.show(data);
      this.say(`${file.name}: ${data.player || "unknown player"}`);
    } catch (error) {
      this.say(`${file.name}: ${error.message}`, true);
    }
  }

  say(text, error = false) {
    this.status.textContent = text;
    this.status.classList.toggle("error", error);
  }

  stop() {
    this.view?.stop();
  }
}
