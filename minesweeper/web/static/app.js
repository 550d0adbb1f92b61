// The page: a playable game first (practice, no sign-in), then the ladder, players'
// pages and replays, chosen by the address's #fragment.

import { ApiError, auth, call, ensurePlayer } from "./api.js";
import { el, replace, seconds } from "./dom.js";
import { Game, games } from "./game.js";
import { ReplayView } from "./replay.js";

const SETTINGS = "minesweeper.settings";
const $ = (id) => document.getElementById(id);

const form = $("settings");
const game = new Game(
  { board: $("board"), counter: $("counter"), timer: $("timer"), face: $("face"),
    status: $("status"), stats: $("stats") },
  { marks: () => form.elements.marks.checked, ended: (g) => ended(g) },
);
window.minesweeper = { game }; // for the tests and the benchmark
const replayView = new ReplayView($("replay-page"));

// -- settings -----------------------------------------------------------------------------

function chosen() {
  const f = form.elements;
  const request = { mode: f.mode.value, rules: f.rules.value };
  if (f.preset.value === "custom") {
    request.preset = "beginner";
    request.rows = Number(f.rows.value);
    request.cols = Number(f.cols.value);
    request.mines = Number(f.mines.value);
  } else {
    request.preset = f.preset.value;
  }
  if (request.mode === "practice") {
    request.topology = f.topology.value;
    if (f.no_guess.checked) request.no_guess = true;
  }
  return request;
}

function saveSettings() {
  const f = form.elements;
  const kept = {};
  for (const name of ["mode", "preset", "rows", "cols", "mines", "topology", "rules"]) kept[name] = f[name].value;
  kept.no_guess = f.no_guess.checked;
  kept.marks = f.marks.checked;
  localStorage.setItem(SETTINGS, JSON.stringify(kept));
}

function loadSettings() {
  let kept = {};
  try { kept = JSON.parse(localStorage.getItem(SETTINGS) ?? "{}") ?? {}; } catch { kept = {}; }
  const f = form.elements;
  for (const [name, value] of Object.entries(kept)) {
    const field = f[name];
    if (!field) continue;
    if (field.type === "checkbox") field.checked = Boolean(value);
    else if ([...(field.options ?? [])].some((o) => o.value === value) || field.tagName === "INPUT") field.value = value;
  }
  // `minesweeper play --web` names its game in the address: practice on that board.
  const asked = new URLSearchParams(location.search);
  if (asked.has("topology") || asked.has("preset")) {
    f.mode.value = "practice";
    for (const name of ["topology", "preset", "rows", "cols", "mines", "rules"]) {
      if (asked.has(name)) f[name].value = asked.get(name);
    }
    f.no_guess.checked = asked.get("no_guess") === "1";
  }
  if (!auth.player && f.mode.value !== "practice") f.mode.value = "practice";
  showChoices();
}

function showChoices() {
  const f = form.elements;
  const custom = f.preset.value === "custom";
  const ranked = f.mode.value !== "practice";
  form.classList.toggle("is-custom", custom);
  for (const name of ["topology", "no_guess"]) f[name].disabled = ranked;
  if (ranked) {
    f.topology.value = "square";
    f.no_guess.checked = false;
    if (custom) f.preset.value = "expert";
    if (f.rules.value === "acm") f.rules.value = "modern";
  }
  f.preset.querySelector("[value=custom]").disabled = ranked;
  f.rules.querySelector("[value=acm]").disabled = ranked;
  $("aids").hidden = ranked;
  $("mode-note").textContent = ranked
    ? (auth.player ? "Ranked: the server deals and times this game; a win enters the ladder."
      : "Sign in to play ranked games.")
    : "Practice: never ranked. Any board, any size, with aids if you like.";
}

async function newGame(retried = false) {
  const request = chosen();
  if (request.mode !== "practice" && !auth.player) {
    openSignIn();
    return;
  }
  saveSettings();
  game.say("");
  try {
    await ensurePlayer();
    showAccount();
    await game.start(request);
    const data = game.data;
    const note = data.mode === "practice" ? "practice" : data.mode;
    game.say(`${data.category} (${note})${data.first_cell !== null && data.first_cell !== undefined ? ": open the ringed cell first" : ""}`);
    if (data.first_cell !== null && data.first_cell !== undefined) game.board.showHint(data.first_cell, true);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401 && !retried) {
      auth.forget(); // an expired or signed-out token: start again as a guest
      showAccount();
      await newGame(true);
    } else {
      game.say(error.message, true);
    }
  }
}

form.addEventListener("change", (e) => {
  showChoices();
  if (e.target.name === "marks") { saveSettings(); if (game.board) game.board.options.marks = form.elements.marks.checked; }
});
form.addEventListener("submit", (e) => { e.preventDefault(); newGame(); });
$("face").addEventListener("click", () => newGame());
document.addEventListener("keydown", (e) => {
  if (e.key === "F2") { e.preventDefault(); newGame(); }
});

for (const button of document.querySelectorAll("[data-aid]")) {
  button.addEventListener("click", async () => {
    try { await game.aid(button.dataset.aid); } catch (error) { game.say(error.message, true); }
  });
}

function ended(g) {
  const end = g.end;
  const stats = $("stats");
  const actions = el("p", { class: "actions" });
  if (end.replay) {
    actions.append(el("a", { href: `#/replay/${encodeURIComponent(g.id)}`, class: "button" }, "Watch the replay"));
  }
  if (g.mode !== "practice" && end.won) {
    const [preset, rules] = presetAndRules(g.data.category);
    actions.append(" ", el("a", { href: `#/ladder/${preset}/${rules}`, class: "button" }, "See the ladder"));
    actions.prepend(el("span", { class: "entered" }, `Entered on the ${g.data.category} ladder. `));
  }
  stats.append(actions);
}

// -- accounts -----------------------------------------------------------------------------

function showAccount() {
  const box = $("account");
  if (auth.player) {
    replace(box,
      el("a", { href: `#/player/${encodeURIComponent(auth.name)}`, class: "me" }, auth.name),
      " ",
      el("button", { type: "button", onclick: signOut }, "Sign out"));
  } else if (auth.guest) {
    replace(box, el("span", { class: "guest" }, "Guest (practice)"), " ",
      el("button", { type: "button", onclick: openSignIn }, "Sign in / Sign up"));
  } else {
    replace(box, el("button", { type: "button", onclick: openSignIn }, "Sign in / Sign up"));
  }
  showChoices();
}

function openSignIn() {
  $("sign-error").textContent = "";
  $("sign-dialog").showModal();
}

$("sign-cancel").addEventListener("click", () => $("sign-dialog").close());
$("sign-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const how = e.submitter?.value ?? "in";
  const f = e.target.elements;
  try {
    const body = { name: f.name.value, password: f.password.value };
    const guest = auth.guest ? [auth.token, auth.name] : null;
    if (guest) {
      await game.abandon(); // the guest's game stays the guest's
      auth.forget(); // and the guest's token is not sent along
    }
    let signed;
    try {
      signed = await call("POST", how === "up" ? "/api/accounts" : "/api/sessions", body);
    } catch (error) {
      if (guest) auth.keep(guest[0], guest[1], true);
      throw error;
    }
    auth.keep(signed.token, signed.player.name);
    $("sign-dialog").close();
    f.password.value = "";
    showAccount();
    if (guest || !game.id || game.over) newGame(); // a guest's game stays the guest's
  } catch (error) {
    $("sign-error").textContent = error.message;
  }
});

async function signOut() {
  await game.abandon();
  try { await call("DELETE", "/api/sessions/current"); } catch { /* signed out anyway */ }
  auth.forget();
  form.elements.mode.value = "practice";
  showAccount();
  newGame();
}

// -- ladder, players, replays ---------------------------------------------------------------

/** A ranked category's preset and rules: "expert" is expert under the modern rules. */
function presetAndRules(category) {
  const [preset, rules] = category.split("/");
  return [preset, rules ?? "modern"];
}

const BOARD_NAMES = { time: "Best time", "3bv/s": "Best 3BV/s", "win-rate": "Win rate" };

async function showLadder(preset = "expert", rules = "modern", board = "time", period = "all") {
  const page = $("ladder-page");
  const info = await call("GET", "/api/ladders");
  const link = (p, r, b, t) => `#/ladder/${p}/${r}/${encodeURIComponent(b)}/${t}`;
  const tabs = el("nav", { class: "tabs", "aria-label": "Categories" },
    info.categories.map((category) => {
      const [p, r] = presetAndRules(category);
      const current = p === preset && r === rules;
      return el("a", { href: link(p, r, board, period), "aria-current": current ? "page" : null }, category);
    }));
  const kinds = el("nav", { class: "tabs", "aria-label": "Ladders" },
    info.boards.map((b) => el("a", { href: link(preset, rules, b, period), "aria-current": b === board ? "page" : null }, BOARD_NAMES[b] ?? b)),
    " · ",
    info.periods.map((t) => el("a", { href: link(preset, rules, board, t), "aria-current": t === period ? "page" : null }, t === "all" ? "All time" : "This month")));
  const data = await call("GET", `/api/ladders/${encodeURIComponent(preset)}/${encodeURIComponent(rules)}?board=${encodeURIComponent(board)}&period=${encodeURIComponent(period)}`);
  let table;
  if (board === "win-rate") {
    table = el("table", { class: "ladder" },
      el("caption", {}, `${data.category}: win rate (at least ${data.minimum_games} games)`),
      el("thead", {}, el("tr", {}, ["#", "Player", "Won", "Played", "Win rate"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, data.rows.map((row) => el("tr", {},
        el("td", {}, String(row.rank)), el("td", {}, playerLink(row.player)),
        el("td", {}, String(row.won)), el("td", {}, String(row.played)),
        el("td", {}, `${(row.win_rate * 100).toFixed(1)}%`)))));
  } else {
    table = el("table", { class: "ladder" },
      el("caption", {}, `${data.category}: ${BOARD_NAMES[board] ?? board}, ${period === "all" ? "all time" : "this month"}`),
      el("thead", {}, el("tr", {}, ["#", "Player", "Time", "3BV", "3BV/s", "Date", "Replay"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, data.rows.map((row) => el("tr", { class: "row-link", "data-game": row.game },
        el("td", {}, String(row.rank)), el("td", {}, playerLink(row.player)),
        el("td", {}, `${seconds(row.ms, 3)} s`), el("td", {}, String(row.bbbv ?? "")),
        el("td", {}, row.bbbv_per_second === null ? "–" : row.bbbv_per_second.toFixed(3)),
        el("td", {}, (row.date ?? "").slice(0, 10)),
        el("td", {}, el("a", { href: `#/replay/${encodeURIComponent(row.game)}` }, "Watch"))))));
  }
  if (!data.rows.length) table.append(el("tbody", {}, el("tr", {}, el("td", { colspan: 7 }, "No games yet."))));
  replace(page, el("h1", {}, "Ladder"), tabs, kinds, table);
  for (const row of page.querySelectorAll(".row-link")) {
    row.addEventListener("click", (e) => {
      if (e.target.closest("a")) return;
      location.hash = `#/replay/${encodeURIComponent(row.dataset.game)}`;
    });
  }
}

function playerLink(name) {
  return el("a", { href: `#/player/${encodeURIComponent(name)}` }, name);
}

async function showPlayer(name) {
  const page = $("player-page");
  replace(page, el("h1", {}, name), el("p", {}, "Loading…"));
  let data;
  try {
    data = await call("GET", `/api/players/${encodeURIComponent(name)}`);
  } catch (error) {
    replace(page, el("h1", {}, name), el("p", { class: "error" }, error.message));
    return;
  }
  // The figures are the history model's (minesweeper.play.history), as `minesweeper stats`.
  const dash = (value, show) => (value === null || value === undefined ? "–" : show(value));
  const percent = (value) => `${(value * 100).toFixed(0)}%`;
  const rows = (data.categories ?? []).map((c) => el("tr", {},
    el("td", {}, c.category), el("td", {}, String(c.games)), el("td", {}, String(c.wins)),
    el("td", {}, String(c.abandoned)),
    el("td", {}, `${(c.win_rate * 100).toFixed(1)}%`),
    el("td", {}, `${percent(c.interval[0])}–${percent(c.interval[1])}`),
    el("td", {}, `${c.current_streak}/${c.best_streak}`),
    el("td", {}, dash(c.best_ms, (ms) => `${seconds(ms, 3)} s`)),
    el("td", {}, dash(c.median_ms, (ms) => `${seconds(ms, 3)} s`)),
    el("td", {}, dash(c.best_bbbv_per_second, (rate) => rate.toFixed(3))),
    el("td", {}, dash(c.efficiency, percent))));
  const recent = (data.games ?? []).map((g) => el("li", {},
    el("a", { href: `#/replay/${encodeURIComponent(g.id)}` }, `${g.category}: ${g.state}${g.ms ? `, ${seconds(g.ms, 3)} s` : ""}`)));
  replace(page,
    el("h1", {}, data.name ?? name),
    data.joined ? el("p", {}, `Playing since ${String(data.joined).slice(0, 10)}`) : null,
    el("table", { class: "ladder" },
      el("caption", {}, "Lifetime, ranked games"),
      el("thead", {}, el("tr", {}, ["Category", "Games", "Won", "Left", "Win rate", "95%", "Streak", "Best time", "Median win", "Best 3BV/s", "Efficiency"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, rows.length ? rows : el("tr", {}, el("td", { colspan: 11 }, "No ranked games yet.")))),
    el("p", { class: "legend" }, "Left: started, then resigned or left unfinished (a game not won). Streak: wins in a row now / at best. Times, 3BV/s and efficiency (median) are those of the wins."),
    recent.length ? [el("h2", {}, "Recent games"), el("ul", {}, recent)] : null);
}

async function showReplay(id) {
  const page = $("replay-page");
  replace(page, el("p", {}, "Loading the replay…"));
  try {
    const replay = await games.replay(id);
    await replayView.load(replay);
  } catch (error) {
    replace(page, el("p", { class: "error" }, error.message));
  }
}

// -- pages --------------------------------------------------------------------------------

const PAGES = ["play-page", "ladder-page", "player-page", "replay-page"];

let routed = 0; // routes begun: only the latest one says its page is loaded

async function route() {
  const mine = ++routed;
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  const page = { ladder: "ladder-page", player: "player-page", replay: "replay-page" }[parts[0]] ?? "play-page";
  for (const id of PAGES) $(id).hidden = id !== page;
  if (page !== "replay-page") replayView.stop();
  // Until its data is in, a page shows what it showed last (aria-busy says so).
  $(page).setAttribute("aria-busy", "true");
  try {
    if (page === "ladder-page") await showLadder(...parts.slice(1).filter(Boolean));
    else if (page === "player-page") await showPlayer(parts[1] ?? "");
    else if (page === "replay-page") await showReplay(parts[1] ?? "");
    else if (!game.board) {
      // A reload goes on with the game it left, if it is still being played.
      const last = localStorage.getItem("minesweeper.game");
      if (!(auth.token && last && await game.resume(last))) await newGame();
    }
  } catch (error) {
    replace($(page), el("p", { class: "error" }, error.message));
  } finally {
    if (mine === routed) $(page).removeAttribute("aria-busy");
  }
}

window.addEventListener("hashchange", route);
window.addEventListener("resize", () => game.board?.fit());
loadSettings();
showAccount();
route();
