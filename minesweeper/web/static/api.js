// The ladder's HTTP API, as the page uses it. A signed-in player's bearer token is
// kept in this browser's local storage; every error comes back as one sentence.

const TOKEN = "minesweeper.token";
const NAME = "minesweeper.name";
const GUEST = "minesweeper.guest";

/** Who this browser plays as: a signed-in player, a guest (practice only), or no one yet. */
export const auth = {
  get token() { return localStorage.getItem(TOKEN); },
  get name() { return localStorage.getItem(NAME); },
  get guest() { return localStorage.getItem(GUEST) === "1"; },
  /** A signed-in player (not a guest): ranked games are theirs to play. */
  get player() { return Boolean(this.token) && !this.guest; },
  keep(token, name, guest = false) {
    localStorage.setItem(TOKEN, token);
    localStorage.setItem(NAME, name);
    localStorage.setItem(GUEST, guest ? "1" : "0");
  },
  forget() { for (const key of [TOKEN, NAME, GUEST]) localStorage.removeItem(key); },
};

/** Make sure there is a token to play with: a guest's, for practice, when no one signed in. */
export async function ensurePlayer() {
  if (auth.token) return;
  const guest = await call("POST", "/api/guests");
  auth.keep(guest.token, guest.player.name, true);
}

/** What a request that never reached the server says. */
export const UNREACHABLE = "The server can't be reached. Nothing is lost: try again once it is back.";

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** `method` `path` with a JSON `body` (or, `raw`, the body as it is, of `type`); the JSON
 *  answer, or an `ApiError` saying why not. */
export async function call(method, path, body = undefined, raw = false, type = "application/json") {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = type;
  if (auth.token) headers.Authorization = `Bearer ${auth.token}`;
  let response;
  try {
    response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : (raw ? body : JSON.stringify(body)),
    });
  } catch {
    // The browser's own words ("Failed to fetch") say nothing to a player. A move the
    // server did take is kept there, and the move number catches one sent twice.
    throw new ApiError(0, UNREACHABLE);
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    throw new ApiError(response.status, errorText(data) ?? `${response.status} ${response.statusText}`);
  }
  return data;
}

function errorText(data) {
  if (!data) return null;
  const detail = data.error?.message ?? data.detail ?? data.error ?? data.message;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail) && detail.length) {
    const first = detail[0];
    return `${(first.loc ?? []).join(".")}: ${first.msg ?? "invalid"}`;
  }
  return null;
}
