// The page: a playable game first (practice, no sign-in), then the ladder, the daily and
// weekly boards, players' pages, replays and community videos, chosen by the #fragment.

import { ApiError, auth, call, ensurePlayer } from "./api.js";
import { el, replace } from "./dom.js";
import { Game, games } from "./game.js";
import { entered, presetAndRules, showBoards, showLadder, showPlayer } from "./pages.js";
import { ReplayView, VideoPicker } from "./replay.js";

const SETTINGS = "minesweeper.settings";
const $ = (id) => document.getElementById(id);

const form = $("settings");
const game = new Game(
  { board: $("board"), counter: $("counter"), timer: $("timer"), face: $("face"),
    status: $("status"), stats: $("stats"), result: $("result") },
  { marks: () => form.elements.marks.checked, ended: (g) => ended(g) },
);
window.minesweeper = { game }; // for the tests and the benchmark
const replayView = new ReplayView($("replay-page"));
const videoView = new VideoPicker($("video-page"));
/** What each non-practice mode promises, for the note under the settings. */
const MODE_NOTES = {
  ranked: "Ranked: the server deals and times this game; a win enters the ladder.",
  daily: "Daily board: today's board, the same for everyone, played once; a win enters today's ranking.",
  weekly: "Weekly board: this week's board, the same for everyone, played once; a win enters this week's ranking.",
};

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
    ? (auth.player ? MODE_NOTES[f.mode.value] : "Sign in to play ranked games and the daily and weekly boards.")
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

async function ended(g) {
  const end = g.end;
  const actions = el("p", { class: "actions" });
  if (end.replay && !end.hidden_until) {
    actions.append(el("a", { href: `#/replay/${encodeURIComponent(g.id)}`, class: "button" }, "Watch the replay"));
  }
  $("stats").append(actions);
  if (g.mode === "practice") return;
  const [preset, rules] = presetAndRules(g.data.category);
  const board = g.mode === "ranked" ? `#/ladder/${preset}/${rules}` : `#/${g.mode}/${preset}/${rules}`;
  actions.append(" ", el("a", { href: board, class: "button" }, g.mode === "ranked" ? "See the ladder" : "See the ranking"));
  if (!end.won) return;
  const place = await entered(g, auth.name);
  if (g.end !== end) return; // another game meanwhile
  actions.prepend(el("span", { class: "entered" }, place.text.startsWith("A win") ? place.text : `Entered ${place.text}`));
  g.showResult(end, el("span", { class: "entered" }, `${place.text}`));
}

/** Play a shared board (from its ranking's page): its mode, level and rules, then deal it. */
function playBoard(mode, preset, rules) {
  const f = form.elements;
  f.mode.value = mode;
  f.preset.value = preset;
  f.rules.value = rules;
  showChoices();
  location.hash = "#/";
  newGame();
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

// -- replays and videos ---------------------------------------------------------------------

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

const PAGES = ["play-page", "ladder-page", "boards-page", "player-page", "replay-page", "video-page"];
const ROUTES = {
  ladder: "ladder-page", daily: "boards-page", weekly: "boards-page", player: "player-page",
  replay: "replay-page", video: "video-page",
};

let routed = 0; // routes begun: only the latest one says its page is loaded

async function route() {
  const mine = ++routed;
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  const page = ROUTES[parts[0]] ?? "play-page";
  for (const id of PAGES) $(id).hidden = id !== page;
  if (page !== "replay-page") replayView.stop();
  if (page !== "video-page") videoView.stop();
  // Until its data is in, a page shows what it showed last (aria-busy says so).
  $(page).setAttribute("aria-busy", "true");
  try {
    if (page === "ladder-page") await showLadder($(page), ...parts.slice(1).filter(Boolean));
    else if (page === "boards-page") await showBoards($(page), parts[0], parts[1] || "beginner", parts[2] || "modern", playBoard, parts[3] || null);
    else if (page === "player-page") await showPlayer($(page), parts[1] ?? "");
    else if (page === "replay-page") await showReplay(parts[1] ?? "");
    else if (page === "video-page") videoView.show();
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
