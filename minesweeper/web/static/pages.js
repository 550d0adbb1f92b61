// The pages around the game: the ranked ladders, the daily and weekly boards' rankings,
// a player's figures for every kind of game, and what a finished game entered.

import { call } from "./api.js";
import { el, replace, seconds } from "./dom.js";

const BOARD_NAMES = { time: "Best time", "3bv/s": "Best 3BV/s", "win-rate": "Win rate" };
/** The kinds of game, as a player's page and the recent games name them. */
const KIND_NAMES = { ranked: "Ranked", daily: "Daily boards", weekly: "Weekly boards", practice: "Practice" };
/** The shared boards: their API path and how a period is named. */
const DAY_MS = 24 * 3600 * 1000;

/** The day (YYYY-MM-DD, UTC) a weekly board's ISO week ("2026-W07") ends: the Monday after. */
function mondayAfter(week) {
  const [year, number] = week.split("-W").map(Number);
  const january4 = Date.UTC(year, 0, 4);
  const firstMonday = january4 - ((new Date(january4).getUTCDay() + 6) % 7) * DAY_MS;
  return new Date(firstMonday + 7 * number * DAY_MS).toISOString().slice(0, 10);
}

/** The ISO week ("2026-W07") of the UTC day at `ms`: the week of its Thursday. */
function isoWeek(ms) {
  const thursday = ms + (3 - ((new Date(ms).getUTCDay() + 6) % 7)) * DAY_MS;
  const year = new Date(thursday).getUTCFullYear();
  const january4 = Date.UTC(year, 0, 4);
  const firstMonday = january4 - ((new Date(january4).getUTCDay() + 6) % 7) * DAY_MS;
  const number = Math.floor((thursday - firstMonday) / (7 * DAY_MS)) + 1;
  return `${year}-W${String(number).padStart(2, "0")}`;
}

const dayOf = (ms) => new Date(ms).toISOString().slice(0, 10);

const SHARED = {
  daily: {
    path: "/api/daily", query: "day", now: "Today's board", unit: "day", period: (day) => day,
    ends: (day) => dayOf(Date.parse(day) + DAY_MS),
    current: () => dayOf(Date.now()),
    shift: (day, n) => dayOf(Date.parse(day) + n * DAY_MS),
  },
  weekly: {
    path: "/api/weekly", query: "week", now: "This week's board", unit: "week",
    period: (week) => week.replace("-W", ", week "),
    ends: mondayAfter,
    current: () => isoWeek(Date.now()),
    shift: (week, n) => isoWeek(Date.parse(mondayAfter(week)) + (7 * n - 7) * DAY_MS),
  },
};

/** Links to the period before and after `period` (none after the current one). */
function periodLinks(mode, preset, rules, period) {
  const shared = SHARED[mode];
  const [before, after] = [shared.shift(period, -1), shared.shift(period, 1)];
  const href = (p) => `#/${mode}/${preset}/${rules}/${p}`;
  const current = shared.current();
  return el("nav", { class: "periods", "aria-label": `Other ${shared.unit}s` },
    el("a", { href: href(before), rel: "prev" }, `← ${shared.period(before)}`),
    after <= current ? el("a", { href: after === current ? `#/${mode}/${preset}/${rules}` : href(after), rel: "next" },
      after === current ? `${shared.now} →` : `${shared.period(after)} →`) : null);
}

/** A ranked category's preset and rules: "expert" is expert under the modern rules. */
export function presetAndRules(category) {
  const [preset, rules] = category.split("/");
  return [preset, rules ?? "modern"];
}

function playerLink(name) {
  return el("a", { href: `#/player/${encodeURIComponent(name)}` }, name);
}

function replayLink(game, text = "Watch") {
  return el("a", { href: `#/replay/${encodeURIComponent(game)}` }, text);
}

/** A table that scrolls sideways inside its own box on a narrow screen, never the page. */
function scroller(table) {
  return el("div", { class: "table-scroll" }, table);
}

const dash = (value, show) => (value === null || value === undefined ? "–" : show(value));
const percent = (value) => `${(value * 100).toFixed(0)}%`;

/** The rows of a time or 3BV/s ladder; its 3BV and date columns are left out on a phone. */
function bestGames(data, caption, replaysFrom = null) {
  const replays = replaysFrom === null;
  const head = ["#", "Player", "Time", "3BV", "3BV/s", "Date", "Replay"];
  const wide = new Set(["3BV", "Date"]);
  const cell = (name, ...content) => el("td", wide.has(name) ? { class: "wide-only" } : {}, ...content);
  return el("table", { class: "ladder" },
    el("caption", {}, caption),
    el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col", class: wide.has(h) ? "wide-only" : null }, h)))),
    el("tbody", {}, data.rows.map((row) => el("tr", { class: replays ? "row-link" : null, "data-game": row.game },
      cell("#", String(row.rank)), cell("Player", playerLink(row.player)),
      cell("Time", `${seconds(row.ms, 3)} s`), cell("3BV", String(row.bbbv ?? "")),
      cell("3BV/s", row.bbbv_per_second === null ? "–" : row.bbbv_per_second.toFixed(3)),
      cell("Date", (row.date ?? "").slice(0, 10)),
      cell("Replay", replays ? replayLink(row.game) : `from ${replaysFrom}`)))),
    data.rows.length ? null : el("tbody", {}, el("tr", {}, el("td", { colspan: 7 }, "No wins yet."))));
}

/** The win-rate ladder, and who is on the way to its minimum of games. */
function winRates(data) {
  const minimum = data.minimum_games;
  const table = el("table", { class: "ladder" },
    el("caption", {}, `${data.category}: win rate (at least ${minimum} games)`),
    el("thead", {}, el("tr", {}, ["#", "Player", "Won", "Played", "Win rate"].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, data.rows.map((row) => el("tr", {},
      el("td", {}, String(row.rank)), el("td", {}, playerLink(row.player)),
      el("td", {}, String(row.won)), el("td", {}, String(row.played)),
      el("td", {}, `${(row.win_rate * 100).toFixed(1)}%`)))));
  const pending = data.pending ?? [];
  if (!data.rows.length) {
    table.append(el("tbody", {}, el("tr", {}, el("td", { colspan: 5 },
      pending.length ? `No one has played ${minimum} games yet.` : "No games yet."))));
  }
  const waiting = pending.length ? el("section", { class: "pending" },
    el("h2", {}, `On the way to ${minimum} games`),
    el("ul", {}, pending.map((row) => el("li", {}, playerLink(row.player),
      `: ${row.played} of ${minimum} games (${row.won} won), ${minimum - row.played} to go`)))) : null;
  return [scroller(table), waiting];
}

function openRowsOnClick(page) {
  for (const row of page.querySelectorAll(".row-link")) {
    row.addEventListener("click", (e) => {
      if (e.target.closest("a")) return;
      location.hash = `#/replay/${encodeURIComponent(row.dataset.game)}`;
    });
  }
}

/** A ranked ladder: a category's best times, 3BV/s or win rates, all time or this month. */
export async function showLadder(page, preset = "expert", rules = "modern", board = "time", period = "all") {
  const info = await call("GET", "/api/ladders");
  const link = (p, r, b, t) => `#/ladder/${p}/${r}/${encodeURIComponent(b)}/${t}`;
  const tabs = el("nav", { class: "tabs", "aria-label": "Categories" },
    info.categories.map((category) => {
      const [p, r] = presetAndRules(category);
      return el("a", { href: link(p, r, board, period), "aria-current": p === preset && r === rules ? "page" : null }, category);
    }));
  const kinds = el("nav", { class: "tabs", "aria-label": "Ladders" },
    info.boards.map((b) => el("a", { href: link(preset, rules, b, period), "aria-current": b === board ? "page" : null }, BOARD_NAMES[b] ?? b)),
    " · ",
    info.periods.map((t) => el("a", { href: link(preset, rules, board, t), "aria-current": t === period ? "page" : null }, t === "all" ? "All time" : "This month")));
  const data = await call("GET", `/api/ladders/${encodeURIComponent(preset)}/${encodeURIComponent(rules)}?board=${encodeURIComponent(board)}&period=${encodeURIComponent(period)}`);
  const when = period === "all" ? "all time" : "this month";
  const shown = board === "win-rate" ? winRates(data)
    : scroller(bestGames(data, `${data.category}: ${BOARD_NAMES[board] ?? board}, ${when}`));
  replace(page, el("h1", {}, "Ranked ladder"),
    el("p", { class: "note" }, "Ranked games only; the daily and weekly boards have rankings of their own: ",
      el("a", { href: "#/daily" }, "daily"), ", ", el("a", { href: "#/weekly" }, "weekly"), "."),
    tabs, kinds, shown);
  openRowsOnClick(page);
}

/** The shared boards of `mode` (daily or weekly): a board's ranking per category (the
 *  current period's, with a button to play it, or an earlier `period`'s), and links to the
 *  periods before and after. A board's replays show once its period is over. */
export async function showBoards(page, mode = "daily", preset = "beginner", rules = "modern", play = null, period = null) {
  const shared = SHARED[mode] ?? SHARED.daily;
  if (period === shared.current()) period = null;
  const info = await call("GET", "/api/ladders");
  const tabs = el("nav", { class: "tabs", "aria-label": "Kinds of board" },
    Object.keys(SHARED).map((m) => el("a", { href: `#/${m}/${preset}/${rules}`, "aria-current": m === mode ? "page" : null },
      m === "daily" ? "Daily board" : "Weekly board")));
  const categories = el("nav", { class: "tabs", "aria-label": "Categories" },
    info.categories.map((category) => {
      const [p, r] = presetAndRules(category);
      const there = period ? `/${period}` : "";
      return el("a", { href: `#/${mode}/${p}/${r}${there}`, "aria-current": p === preset && r === rules ? "page" : null }, category);
    }));
  const asked = period ? `?${shared.query}=${encodeURIComponent(period)}` : "";
  const data = await call("GET", `${shared.path}/${encodeURIComponent(preset)}/${encodeURIComponent(rules)}${asked}`);
  const ends = data.day ? shared.ends(data.day) : "the end of its period";
  const over = period !== null && data.day && ends <= dayOf(Date.now());
  const button = play && period === null ? el("button", { type: "button", class: "play-board", onclick: () => play(mode, preset, rules) },
    `Play ${mode === "daily" ? "today's" : "this week's"} ${data.category} board`) : null;
  const title = `The board of ${shared.period(data.day ?? period ?? "")}`;
  replace(page,
    el("h1", {}, mode === "daily" ? "Daily boards" : "Weekly boards"),
    el("p", { class: "note" }, mode === "daily"
      ? "One board per category each day (UTC), the same for everyone, played once."
      : "One board per category each week (Monday to Sunday, UTC), the same for everyone, played once."),
    tabs, categories, button, periodLinks(mode, preset, rules, data.day ?? shared.current()),
    scroller(bestGames(data, period === null
      ? `${shared.now} (${shared.period(data.day ?? "")}), ${data.category}: best time`
      : `${title}, ${data.category}: best time`, over ? null : ends)),
    el("p", { class: "legend" }, over
      ? `This ${shared.unit} is over: its board's replays show.`
      : `Everyone plays the same board: its replays, and the mines of a lost game, show from ${ends} 00:00 UTC, when the board's ${shared.unit} is over.`));
}

/** One kind of game's figures on a player's page: a row per category and way of playing. */
function figuresTable(kind, items) {
  const head = ["Category", "Games", "Won", "Left", "Win rate", "95%", "Streak", "Best time", "Median win", "Best 3BV/s", "Efficiency"];
  const rows = items.map((c) => el("tr", {},
    el("td", {}, c.play === "assisted" ? `${c.category} (assisted)` : c.category),
    el("td", {}, String(c.games)), el("td", {}, String(c.wins)), el("td", {}, String(c.abandoned)),
    el("td", {}, `${(c.win_rate * 100).toFixed(1)}%`),
    el("td", {}, `${percent(c.interval[0])}–${percent(c.interval[1])}`),
    el("td", {}, `${c.current_streak}/${c.best_streak}`),
    el("td", {}, dash(c.best_ms, (ms) => `${seconds(ms, 3)} s`)),
    el("td", {}, dash(c.median_ms, (ms) => `${seconds(ms, 3)} s`)),
    el("td", {}, dash(c.best_bbbv_per_second, (rate) => rate.toFixed(3))),
    el("td", {}, dash(c.efficiency, percent))));
  return scroller(el("table", { class: "ladder figures", "data-kind": kind },
    el("caption", {}, `Lifetime, ${KIND_NAMES[kind].toLowerCase()}`),
    el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.length ? rows : el("tr", {}, el("td", { colspan: 11 }, `No ${kind} games yet.`)))));
}

/** A player's page: lifetime figures for every kind of game, and the latest games by kind. */
export async function showPlayer(page, name) {
  replace(page, el("h1", {}, name), el("p", {}, "Loading…"));
  const data = await call("GET", `/api/players/${encodeURIComponent(name)}`);
  const kinds = data.kinds ?? { ranked: data.categories ?? [] };
  const latest = Object.keys(SHARED).concat("ranked").map((kind) => {
    const games = (data.games ?? []).filter((g) => g.mode === kind);
    if (!games.length) return null;
    return el("section", { class: "recent", "data-kind": kind }, el("h3", {}, KIND_NAMES[kind]),
      el("ul", {}, games.map((g) => {
        const text = `${g.category}${g.day ? ` (${g.day})` : ""}: ${g.state}${g.ms ? `, ${seconds(g.ms, 3)} s` : ""}`;
        const from = SHARED[g.mode] && g.day ? SHARED[g.mode].ends(g.day) : null;
        const today = new Date().toISOString().slice(0, 10);
        // A shared board's replays are refused while others still play it.
        return el("li", {}, from !== null && from > today ? `${text} (replay from ${from})` : replayLink(g.id, text));
      })));
  }).filter(Boolean);
  replace(page,
    el("h1", {}, data.name ?? name),
    data.joined ? el("p", {}, `Playing since ${String(data.joined).slice(0, 10)}`) : null,
    Object.keys(KIND_NAMES).map((kind) => figuresTable(kind, kinds[kind] ?? [])),
    el("p", { class: "legend" }, "Left: started, then resigned or left unfinished (a game not won). Streak: wins in a row now / at best. Times, 3BV/s and efficiency (median) are those of the wins. Practice games with a hint, the odds or the computer's moves are counted apart (assisted)."),
    latest.length ? [el("h2", {}, "Recent games"), latest] : null);
}

/** What a won ranked, daily or weekly game entered, for the result line: its place on its
 *  ladder (best time) and whether it is the player's best there. */
export async function entered(game, player) {
  const [preset, rules] = presetAndRules(game.data.category);
  const where = game.mode === "ranked"
    ? { path: `/api/ladders/${preset}/${rules}?board=time&limit=100`, href: `#/ladder/${preset}/${rules}`, name: `the ${game.data.category} ladder` }
    : { path: `${SHARED[game.mode].path}/${preset}/${rules}?limit=100`, href: `#/${game.mode}/${preset}/${rules}`, name: `${game.mode === "daily" ? "today's" : "this week's"} ${game.data.category} board` };
  let rank = null;
  let best = null;
  let least = null;
  try {
    const data = await call("GET", where.path);
    const row = data.rows.find((r) => r.player === player);
    if (row) [rank, best] = [row.rank, row.game === game.id ? null : row.ms];
    least = data.minimum_bbbv ?? null;
  } catch { /* the place is a courtesy: the game is kept either way */ }
  const bbbv = game.end?.stats?.bbbv;
  if (least !== null && bbbv !== undefined && bbbv < least) {
    return { text: `A win, but a board of 3BV ${bbbv} ranks no time on ${where.name} (its least is ${least}). `, href: where.href, name: where.name };
  }
  const place = rank === null ? "outside the top 100" : `#${rank}`;
  const personal = best === null ? (rank === null ? "" : ", your best there") : `; your best there: ${seconds(best, 3)} s`;
  return { text: `${place} on ${where.name}${personal}. `, href: where.href, name: where.name };
}
