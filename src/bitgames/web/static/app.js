// The bitgames page: one game per tab, drawn with the library's own SVG, moves made by
// clicking the squares the server names for each legal move.
"use strict";

const $ = (id) => document.getElementById(id);
let game = null;        // the state the server sent last
let picked = [];        // squares clicked so far for the next move
let polling = null;
let viewing = null;     // the ply shown while stepping through the game, or null

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function say(text) { $("message").textContent = text || ""; }

async function run(action) {
  try {
    say("");
    const state = await action();
    if (state) show(state);
  } catch (error) {
    say(error.message);
  }
}

// -- starting a game ------------------------------------------------------------------------

async function loadKinds() {
  const kinds = await api("GET", "/api/kinds");
  for (const kind of kinds) {
    const option = document.createElement("option");
    option.value = kind.key;
    option.textContent = kind.title;
    option.dataset.maxLevel = kind.max_level;
    $("game").appendChild(option);
  }
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted) $("game").value = wanted;
}

// the sides; the opponent field names the engine (a match player spec) if filled in:
// against a person it plays the other side, when watching it plays second
function players() {
  const side = $("side").value;
  const opponent = $("opponent").value.trim() || "engine";
  if (side === "first") return ["human", opponent];
  if (side === "second") return [opponent, "human"];
  if (side === "both") return ["human", "human"];
  return ["engine", opponent];
}

async function newGame(event) {
  if (event) event.preventDefault();
  if (game) closeGame();
  const body = { game: $("game").value, level: Number($("level").value),
                 players: players() };
  if ($("seconds").value) body.seconds = Number($("seconds").value);
  await run(() => api("POST", "/api/games", body));
}

function closeGame() {
  if (game) navigator.sendBeacon(`/api/games/${game.id}/close`);
  game = null;
}

// -- drawing --------------------------------------------------------------------------------

function show(state) {
  game = state;
  picked = [];
  viewing = null;
  $("viewing").hidden = true;
  $("board").innerHTML = state.svg;
  $("board").dataset.game = state.game;
  $("fen").value = state.fen;
  $("save").href = `/api/games/${state.id}/record`;
  $("save").download = `bitgames-${state.game}${state.extension}`;
  showStatus(state);
  showMoves(state);
  showAnalysis(state);
  showChoices();
  markTargets();
  const busy = state.thinking || (!state.over && !state.paused && state.to_move !== "human");
  if (busy && !polling) polling = setInterval(refresh, 250);
  if (!busy && polling) { clearInterval(polling); polling = null; }
}

async function refresh() {
  if (!game) return;
  try {
    const state = await api("GET", `/api/games/${game.id}`);
    if (state.moves.length !== game.moves.length || state.thinking !== game.thinking
        || state.svg !== game.svg || state.analysis.length !== game.analysis.length) {
      show(state);
    } else {
      game = state;
      showStatus(state);
      if (!state.thinking && polling && (state.over || state.paused
                                          || state.to_move === "human")) {
        clearInterval(polling); polling = null;
      }
    }
  } catch (error) {
    say(error.message);
    clearInterval(polling); polling = null;
  }
}

function showStatus(state) {
  let text;
  if (state.over) text = `Game over: ${state.result}`;
  else if (state.to_move === "human") text = `${state.turn} to move (you)`;
  else text = `${state.turn} to move (${state.to_move})`;
  if (state.thinking) text += ` — engine thinking (${state.thinking})`;
  if (state.paused && !state.over && state.to_move !== "human") text += " — paused";
  $("status").textContent = text;
  const live = state.live;
  // a selective result (Othello's endgame passes) shows its probability: depth 24@87%
  const sure = live && live.probability != null ? `@${Math.round(100 * live.probability)}%` : "";
  let info = live ? `depth ${live.depth}${sure}  score ${live.score}  pv ${live.pv.join(" ")}` : "";
  if (state.hint && state.hint.move) {
    info = `hint: ${state.hint.move} (${state.hint.score})  pv ${state.hint.pv.join(" ")}`;
  }
  $("live").textContent = info;
  if (state.error) say(state.error);
}

function showMoves(state) {
  const list = $("moves");
  list.innerHTML = "";
  const mistakes = new Set(state.analysis.filter((r) => r.mistake).map((r) => r.ply));
  state.moves.forEach((move, i) => {
    const item = document.createElement("li");
    item.textContent = move;
    if (mistakes.has(i + 1)) item.className = "mistake";
    item.addEventListener("click", () => step(i + 1));
    list.appendChild(item);
  });
}

function showAnalysis(state) {
  const body = $("analysis").querySelector("tbody");
  body.innerHTML = "";
  for (const row of state.analysis) {
    const tr = document.createElement("tr");
    if (row.mistake) tr.className = "mistake";
    for (const value of [row.ply, row.move, row.best, row.score ?? "", row.loss ?? ""]) {
      const td = document.createElement("td");
      td.textContent = value === null ? "" : value;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  $("graph").innerHTML = graph(state.analysis);
}

// the evaluation after each move, from the first player's side: a line over the plies
function graph(rows) {
  const points = rows.filter((r) => r.after !== undefined && r.after !== null);
  if (points.length < 2) return "";
  const width = 360, height = 120;
  const values = points.map((r) => (r.ply % 2 === 1 ? r.after : -r.after));
  const top = Math.max(1e-9, ...values.map(Math.abs));
  const x = (i) => (i / (points.length - 1)) * (width - 10) + 5;
  const y = (v) => height / 2 - (v / top) * (height / 2 - 5);
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const marks = points.map((r, i) => (r.mistake
    ? `<circle class="mistake" cx="${x(i).toFixed(1)}" cy="${y(values[i]).toFixed(1)}" r="3" fill="#b00020"/>`
    : "")).join("");
  return `<svg class="evaluation" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<line x1="0" y1="${height / 2}" x2="${width}" y2="${height / 2}" stroke="#999"/>` +
    `<polyline points="${line}" fill="none" stroke="#2d4a36" stroke-width="2"/>${marks}</svg>`;
}

// -- stepping through the game ----------------------------------------------------------------

async function step(ply) {
  if (!game || ply < 0 || ply > game.moves.length) return;
  try {
    const view = await api("GET", `/api/games/${game.id}/view?ply=${ply}`);
    viewing = view.ply;
    $("board").innerHTML = view.svg;
    $("viewing").hidden = false;
    const row = view.analysis;
    let text = view.ply === 0 ? "the start" : `after ${view.ply}. ${game.moves[view.ply - 1]}`;
    if (row) text += ` — best ${row.best} (${row.best_score})` + (row.mistake ? ", a mistake" : "");
    $("viewing-text").textContent = text;
    document.querySelectorAll("#moves li").forEach((li, i) =>
      li.classList.toggle("current", i + 1 === view.ply));
  } catch (error) {
    say(error.message);
  }
}

function backToGame() { if (game) show(game); }

// -- moving by clicks -----------------------------------------------------------------------

function candidates() {
  if (!game || game.over || game.to_move !== "human" || game.thinking) return [];
  return game.legal.filter((m) => m.squares.length > 0
    && picked.every((square, i) => m.squares[i] === square));
}

function markTargets() {
  const board = $("board");
  board.querySelectorAll(".target, .picked").forEach((e) => e.classList.remove("target", "picked"));
  const next = new Set(candidates().map((m) => m.squares[picked.length]).filter(Boolean));
  board.querySelectorAll("[data-square]").forEach((element) => {
    const square = element.dataset.square;
    const kind = element.classList;
    if (!(kind.contains("square") || kind.contains("point"))) return;
    if (next.has(square)) kind.add("target");
    if (picked.includes(square)) kind.add("picked");
  });
}

// moves that need no square (a pass) or that the clicks leave open (a rotation) as buttons
function showChoices() {
  const area = $("choices");
  area.innerHTML = "";
  if (!game || game.over || game.to_move !== "human" || game.thinking) return;
  const open = picked.length
    ? candidates().filter((m) => m.squares.length === picked.length)
    : game.legal.filter((m) => m.squares.length === 0);
  for (const move of open) {
    const button = document.createElement("button");
    button.textContent = move.move;
    button.className = "choice";
    button.addEventListener("click", () => play(move.move));
    area.appendChild(button);
  }
}

// the square under the pointer, whatever is drawn on top of it (a piece, a mirror, a dot)
function squareAt(event) {
  for (const element of document.elementsFromPoint(event.clientX, event.clientY)) {
    if (element.dataset && element.dataset.square) return element.dataset.square;
  }
  return null;
}

function click(event) {
  const square = squareAt(event);
  if (!square || !game || viewing !== null) return;
  const before = picked;
  picked = [...picked, square];
  let open = candidates();
  if (open.length === 0) {
    picked = [square];            // start again from this square
    open = candidates();
    if (open.length === 0) {
      picked = [];
      markTargets();
      showChoices();
      if (game.to_move === "human" && !game.over && before.length === 0) {
        say(`no move starts on ${square}`);
      }
      return;
    }
  }
  const complete = open.filter((m) => m.squares.length === picked.length);
  if (complete.length === 1 && open.length === 1) {
    play(complete[0].move);
    return;
  }
  say("");
  markTargets();
  showChoices();
}

function play(move) {
  picked = [];
  run(() => api("POST", `/api/games/${game.id}/move`, { move }));
}

// -- buttons --------------------------------------------------------------------------------

function action(name) {
  return () => run(() => api("POST", `/api/games/${game.id}/${name}`));
}

$("setup").addEventListener("submit", newGame);
$("back").addEventListener("click", () => step(viewing - 1));
$("forward").addEventListener("click", () => step(viewing + 1));
$("live-game").addEventListener("click", backToGame);
addEventListener("keydown", (event) => {
  if (!game || event.target.closest("input, textarea")) return;
  if (event.key === "ArrowLeft") step((viewing ?? game.moves.length) - 1);
  if (event.key === "ArrowRight" && viewing !== null) step(viewing + 1);
  if (event.key === "Escape") backToGame();
});
$("board").addEventListener("click", click);
$("undo").addEventListener("click", action("undo"));
$("hint").addEventListener("click", action("hint"));
$("engine").addEventListener("click", action("engine"));
$("stop").addEventListener("click", action("stop"));
$("analyse").addEventListener("click", action("analyse"));
$("typed").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("move-text").value.trim();
  if (text) { $("move-text").value = ""; play(text); }
});
$("position").addEventListener("submit", (event) => {
  event.preventDefault();
  run(() => api("POST", `/api/games/${game.id}/position`, { fen: $("fen").value }));
});
$("load").addEventListener("submit", (event) => {
  event.preventDefault();
  run(() => api("POST", `/api/games/${game.id}/load`, { text: $("record").value }));
});
$("game").addEventListener("change", () => {
  const option = $("game").selectedOptions[0];
  $("level").max = option.dataset.maxLevel;
  newGame();
});
$("engine").title = "the engine plays the side to move when it is an engine's";
addEventListener("pagehide", closeGame);

loadKinds().then(() => newGame()).catch((error) => say(error.message));
