// congo serve: the page. It shows what the server sends and asks it for everything else; it never
// decides whether a move is legal. No build step, no dependencies.
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const config = JSON.parse(document.body.dataset.config);
const FILES = "abcdefg";
// One square and the coordinate margin, as fractions of the board (the server gives congo.svg's geometry).
const SQ = config.square / config.board, MARGIN = config.margin / config.board;

let state = null;        // the last "state" message, with the whole move list and the board drawn
let line = [];           // the move list, rebuilt from the states' changes
let lineVersion = null;  // its version (null: none yet)
let syncing = false;     // a gap was found: the whole state is asked for, changes wait for it
let drawn = "";          // the board as the server last drew it, from this tab's side
let flipped = params.get("side") === "black";
let path = [];           // the squares of the move being entered
let targets = [];
let socket = null;
let dragFrom = null;
let pressSelected = null; // a piece selected by the press that began a click or a drag
let analysisFen = "";
let pending = false;     // a path sent, its answer not yet here: clicks wait in the queue
const queued = [];

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function announce(text) {
  $("announce").textContent = text;
}

function showError(text) {
  $("error").textContent = text || "";
}

// -- the board ----------------------------------------------------------------------------------

function squareName(file, rank) { return FILES[file] + (rank + 1); }

function buildSquares() {
  const squares = $("squares");
  for (let rank = 6; rank >= 0; rank--) {
    for (let file = 0; file < 7; file++) {
      const button = document.createElement("button");
      button.dataset.square = squareName(file, rank);
      button.dataset.file = file;
      button.dataset.rank = rank;
      button.tabIndex = -1;
      button.addEventListener("click", () => {
        // The press already selected this piece: the click that ends it does not unselect it.
        if (pressSelected === button.dataset.square) { pressSelected = null; return; }
        pressSelected = null;
        clickSquare(button.dataset.square);
      });
      squares.appendChild(button);
    }
  }
  placeSquares();
}

function placeSquares() {
  for (const button of $("squares").children) {
    const file = +button.dataset.file, rank = +button.dataset.rank;
    const column = flipped ? 6 - file : file, row = flipped ? rank : 6 - rank;
    button.style.left = (100 * (MARGIN + column * SQ)) + "%";
    button.style.top = (100 * (MARGIN + row * SQ)) + "%";
  }
}

function squareButton(name) { return document.querySelector(`#squares [data-square="${name}"]`); }

function labelSquares() {
  const pieces = state ? state.pieces : {};
  let focusable = false;
  for (const button of $("squares").children) {
    const name = button.dataset.square;
    const piece = pieces[name];
    let label = name + ", " + (piece || "empty");
    if (path.length && path[0] === name) label += ", selected";
    if (targets.includes(name)) label += ", possible move";
    button.setAttribute("aria-label", label);
    button.classList.toggle("occupied", Boolean(piece));
    button.classList.toggle("selected", path.includes(name));
    button.classList.toggle("target", targets.includes(name));
    if (button.tabIndex === 0) focusable = true;
  }
  if (!focusable) squareButton(flipped ? "g7" : "a1").tabIndex = 0;
}

// The server sends each tab the board drawn from its side alone (it is told when the tab turns it).
function side() { return flipped ? "black" : "white"; }

function drawBoard(svg) {
  if (svg) $("svg").innerHTML = svg;
}

// The drawing for this tab's side in a message, if it has one.
function drawingIn(message) { return message["svg_" + side()]; }

function clearSelection(redraw) {
  path = [];
  targets = [];
  $("stop").hidden = true;
  $("cancel").hidden = true;
  if (redraw && state) drawBoard(state.svg);
  labelSquares();
}

function askPath(squares) {
  pending = true;
  send({ type: "path", path: squares });
}

function clickSquare(name) {
  if (!state) return;
  if (pending) { queued.push(name); return; }
  if (path.length && targets.includes(name)) {
    askPath([...path, name]);
  } else if (path.length === 1 && path[0] === name) {
    clearSelection(true);
  } else if (path.length > 1) {
    // In the middle of a chain, a click elsewhere changes nothing (Esc cancels).
  } else {
    askPath([name]);
  }
}

function answered() {
  pending = false;
  if (queued.length) clickSquare(queued.shift());
}

function onChoices(message) {
  if (message.played) { clearSelection(false); answered(); return; }
  if (!state || message.fen !== state.fen) {
    // An answer about a position this tab no longer shows (another tab moved before it came):
    // dropped, with the clicks that waited for it.
    pending = false;
    queued.length = 0;
    clearSelection(true);
    return;
  }
  if (!message.path.length) { clearSelection(true); answered(); return; }
  path = message.path;
  targets = message.targets;
  $("stop").hidden = !message.stop;
  $("cancel").hidden = path.length < 2;
  drawBoard(drawingIn(message));
  labelSquares();
  if (message.stop) announce(`Jumped to ${path[path.length - 1]}. Next landings: ${targets.join(", ")}, or stop here.`);
  answered();
}

function stopHere() {
  if (path.length > 1 && !$("stop").hidden) send({ type: "move", move: path.join("") });
}

function cancelChain() {
  clearSelection(true);
}

// Dragging: a press on one square and a release on another is a move from the first to the second.
function squareAt(x, y) {
  const element = document.elementFromPoint(x, y);
  return element && element.dataset && element.dataset.square ? element.dataset.square : null;
}

function setupDrag() {
  const squares = $("squares");
  squares.addEventListener("pointerdown", (event) => {
    const name = squareAt(event.clientX, event.clientY);
    dragFrom = name && state && state.pieces[name] ? name : null;
    pressSelected = null;
    if (dragFrom && !path.length) {
      // Selected on the press, so that its targets show while it is dragged; a press while the
      // server is still answering (the move just played) waits its turn, as a click does.
      pressSelected = dragFrom;
      if (pending) queued.push(dragFrom);
      else askPath([dragFrom]);
    }
  });
  document.addEventListener("pointerup", (event) => {
    const from = dragFrom;
    dragFrom = null;
    if (!from) return;
    const to = squareAt(event.clientX, event.clientY);
    if (!to || to === from) return;
    event.preventDefault();
    pressSelected = null;
    if (path.length > 1) return;
    if (pending || (path.length === 1 && path[0] === from)) clickSquare(to); // waits for the targets
    else { clearSelection(false); askPath([from, to]); }
  });
}

// Arrow keys move the focus between squares (in screen directions).
function moveFocus(button, key) {
  let file = +button.dataset.file, rank = +button.dataset.rank;
  const sign = flipped ? -1 : 1;
  if (key === "ArrowLeft") file -= sign;
  if (key === "ArrowRight") file += sign;
  if (key === "ArrowUp") rank += sign;
  if (key === "ArrowDown") rank -= sign;
  if (file < 0 || file > 6 || rank < 0 || rank > 6) return;
  const next = squareButton(squareName(file, rank));
  for (const other of $("squares").children) other.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}

// -- state from the server ------------------------------------------------------------------------

function scoreText(score) {
  if (!score) return "–";
  if (score.startsWith("#")) return score;
  const value = +score / 100;
  return (value > 0 ? "+" : "") + value.toFixed(2);
}

// A state carries the move list's entries from the first that changed (moves_from entries are
// kept) and the board's drawings only when they changed; a whole state ("full") carries all.
// A change to another version than the one this tab has is a gap: the whole state is asked for.
function applyLine(message) {
  if (message.full) {
    line = message.moves.slice();
  } else if (lineVersion === null || message.base !== lineVersion || message.moves_from > line.length) {
    return false;
  } else {
    line.length = message.moves_from;
    for (const move of message.moves) line.push(move);
  }
  if (line.length !== message.length) return false;
  lineVersion = message.version;
  return true;
}

function onState(message) {
  if (!applyLine(message)) {
    lineVersion = null;
    if (!syncing) { syncing = true; send({ type: "sync" }); }
    return;
  }
  if (message.full) syncing = false;
  if (drawingIn(message)) drawn = drawingIn(message);
  const before = state;
  state = { ...message, moves: line, svg: drawn };
  if (message.game && params.get("game") !== message.game) {
    // The tab's address names its game, so that a copy of it (another tab) shows the same game.
    const next = new URLSearchParams({ token: config.token, game: message.game });
    history.replaceState(null, "", "?" + next.toString());
  }
  clearSelection(false);
  drawBoard(state.svg);
  const board = $("board");
  board.dataset.fen = message.fen;
  board.dataset.turn = message.turn;
  $("fen").value = message.fen;
  $("turn").textContent = message.result ? "" : (message.turn === "w" ? "White" : "Black") + " to move"
    + (message.thinking ? " (the engine is thinking)" : "");
  $("result").dataset.result = message.result;
  $("result").textContent = message.result;
  $("reason").textContent = message.reason ? `(${message.reason})` : "";
  showMoves(message);
  // Analysis: reset until the engine reports on this position.
  if (analysisFen !== message.fen) {
    resetAnalysis(message.mode === "analyse" ? "" : "off");
    showWdl(message.wdl); // known without the engine (a tablebase's verdict), or nothing yet
  }
  if (message.result && message.cursor === line.length) showResult(message.result);
  $("analysis").hidden = message.mode !== "analyse";
  $("tablebase").textContent = message.tablebase ? "Tablebase: " + message.tablebase.text : "";
  $("tablebase").dataset.wdl = message.tablebase ? message.tablebase.wdl : "";
  $("side").value = message.side;
  $("limit").value = message.limit; // the server's strength, in every view: the one source of it
  $("resign").disabled = message.mode !== "play" || Boolean(message.result);
  updateTyped();
  // Announce what happened.
  if (before && line.length && message.cursor && before.fen !== message.fen) {
    const move = line[message.cursor - 1];
    announce(`${move.san}${message.result ? ", " + message.result + " " + message.reason : ""}`);
  } else if (message.result) {
    announce(`${message.result} ${message.reason}`);
  }
}

// The move list: one element per ply, then the other moves tried there. Only the entries from the
// first that changed are made again; the rest stay as they are.
function showMoves(message) {
  const list = $("moves");
  const from = message.full ? 0 : message.moves_from;
  for (const item of [...list.children]) {
    if (+(item.dataset.ply || item.dataset.variation) > from) item.remove();
  }
  const rootWhite = message.root.split(" ")[1] !== "b";
  for (const move of line.slice(from)) {
    const item = document.createElement("li");
    item.dataset.ply = move.ply;
    item.dataset.uci = move.uci;
    const white = (move.ply % 2 === 1) === rootWhite;
    if (white || move.ply === 1) {
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = Math.floor((move.ply + (rootWhite ? 1 : 2)) / 2) + (white ? "." : "…");
      item.appendChild(number);
    }
    item.appendChild(document.createTextNode(move.san));
    item.setAttribute("role", "button");
    item.tabIndex = 0;
    item.addEventListener("click", () => send({ type: "goto", ply: move.ply }));
    list.appendChild(item);
    // The other moves tried here: a click shows that line instead.
    for (const other of move.variations || []) {
      const alt = document.createElement("li");
      alt.className = "variation";
      alt.dataset.variation = move.ply;
      alt.dataset.uci = other.uci;
      alt.textContent = `(${other.san})`;
      alt.setAttribute("role", "button");
      alt.tabIndex = 0;
      alt.title = "Show this variation";
      alt.addEventListener("click", () => send({ type: "variation", ply: move.ply, uci: other.uci }));
      list.appendChild(alt);
    }
  }
  list.dataset.version = String(lineVersion);
  for (const item of list.querySelectorAll(".current")) item.classList.remove("current");
  const current = list.querySelector(`[data-ply="${message.cursor}"]`);
  if (current) {
    current.classList.add("current");
    current.scrollIntoView({ block: "nearest" });
  }
}

function resetAnalysis(text) {
  analysisFen = state ? state.fen : "";
  const panel = $("analysis");
  panel.dataset.depth = "0";
  panel.dataset.score = "";
  panel.dataset.pv = "";
  panel.dataset.fen = analysisFen;
  $("depth").textContent = "0";
  $("score").textContent = text || "–";
  $("nps").textContent = "0";
  $("lines").textContent = "";
  setEvalBar(null);
  showWdl(null);
}

// The engine's chances (per mille, White's point of view) beside the evaluation bar.
function showWdl(wdl) {
  const element = $("wdl");
  element.dataset.wdl = wdl ? wdl.join(" ") : "";
  const percent = (value) => Math.round(value / 10) + "%";
  element.textContent = wdl ? `White ${percent(wdl[0])} · draw ${percent(wdl[1])} · Black ${percent(wdl[2])}` : "";
}

// A finished game has no analysis: the result is its score, and the bar goes to the winner.
function showResult(result) {
  $("score").textContent = result;
  setEvalBar(result === "1-0" ? "#0" : result === "0-1" ? "#-0" : "0");
  showWdl(result === "1-0" ? [1000, 0, 0] : result === "0-1" ? [0, 0, 1000] : [0, 1000, 0]);
}

function setEvalBar(score) {
  let fraction = 0.5;
  if (score && score.startsWith("#")) fraction = score.startsWith("#-") ? 0 : 1;
  else if (score) fraction = 1 / (1 + Math.exp(-(+score) / 250));
  $("evalfill").style.height = (100 * fraction) + "%";
}

function onAnalysis(message) {
  if (!state || message.fen !== state.fen || path.length) return;
  const panel = $("analysis");
  panel.dataset.depth = String(message.depth);
  panel.dataset.score = message.score;
  panel.dataset.pv = message.pv;
  $("depth").textContent = message.depth;
  $("score").textContent = scoreText(message.score);
  $("nps").textContent = message.nps.toLocaleString("en");
  setEvalBar(message.score);
  showWdl(message.wdl);
  if (drawingIn(message)) {
    state.svg = drawingIn(message);
    drawBoard(state.svg);
  }
  const lines = $("lines");
  lines.textContent = "";
  for (const entry of message.lines) {
    const item = document.createElement("li");
    item.textContent = `${scoreText(entry.score)}  ${entry.san}`;
    item.dataset.wdl = entry.wdl ? entry.wdl.join(" ") : "";
    lines.appendChild(item);
  }
}

// -- typed moves ------------------------------------------------------------------------------------

function normalise(text) { return text.toLowerCase().replace(/[-x,+#\s]/g, ""); }

function updateTyped() {
  const text = $("typed").value.trim();
  $("typed-list").textContent = "";
  if (!text || !state) return;
  if (state.legal === null) {
    // Too many legal moves to send with the position: the server lists those that match.
    send({ type: "complete", text });
    return;
  }
  const key = normalise(text);
  const matching = state.legal.filter((move) =>
    move.san.toLowerCase().startsWith(text.toLowerCase()) || normalise(move.san).startsWith(key)
    || move.uci.startsWith(key));
  showTyped(matching.slice(0, 12));
}

function onCompletions(message) {
  if (!state || message.fen !== state.fen || message.text !== $("typed").value.trim()) return;
  $("typed-list").textContent = "";
  showTyped(message.moves);
}

function showTyped(matching) {
  const list = $("typed-list");
  for (const move of matching) {
    const item = document.createElement("li");
    item.textContent = move.san;
    item.dataset.uci = move.uci;
    item.addEventListener("click", () => { send({ type: "move", move: move.uci }); $("typed").value = ""; });
    list.appendChild(item);
  }
}

// -- the match view ---------------------------------------------------------------------------------

function onMatch(message) {
  $("m-title").textContent = `${message.first} – ${message.second}`;
  const info = $("match");
  info.dataset.matchScore = message.score;
  info.dataset.games = String(message.games);
  $("m-score").textContent = message.score;
  $("m-games").textContent = message.games;
  $("m-total").textContent = message.total;
  $("m-done").textContent = message.done ? "— finished" : "";
  const current = message.current || {};
  if (current.svg) $("m-svg").innerHTML = current.svg;
  $("m-board").dataset.fen = current.fen || "";
  $("m-white").textContent = current.white ? "White: " + current.white : "";
  $("m-black").textContent = current.black ? "Black: " + current.black : "";
  const clocks = current.clocks || {};
  $("m-white-clock").textContent = clocks.white !== undefined ? clocks.white.toFixed(1) + " s" : "";
  $("m-black-clock").textContent = clocks.black !== undefined ? clocks.black.toFixed(1) + " s" : "";
  const evals = message.evals || {};
  $("m-white-eval").textContent = evals.white ? "eval " + scoreText(evals.white) : "";
  $("m-black-eval").textContent = evals.black ? "eval " + scoreText(evals.black) : "";
  // Each message carries the games finished since the one before (from "finished_from").
  const list = $("m-finished");
  if (message.finished_from === 0) list.textContent = "";
  if (message.finished.length && message.finished_from === list.children.length) {
    for (const game of message.finished) {
      const item = document.createElement("li");
      item.dataset.result = game.result;
      item.textContent = `${game.white} – ${game.black}: ${game.result} (${game.termination}, ${game.plies} plies) `;
      const link = document.createElement("a");
      link.textContent = "save";
      link.href = "#";
      link.addEventListener("click", (event) => { event.preventDefault(); download(game.record, `game-${game.index + 1}.pgn`); });
      item.appendChild(link);
      list.appendChild(item);
    }
    const last = message.finished[message.finished.length - 1];
    announce(`Game ${message.games}: ${last.result}. Score ${message.score}.`);
  }
}

// -- records ----------------------------------------------------------------------------------------

function download(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// -- wiring -----------------------------------------------------------------------------------------

function connect() {
  const view = params.get("mode") === "match" ? "match" : "game";
  const query = new URLSearchParams({ token: config.token, view });
  for (const key of ["game", "fen", "mode", "side", "limit"]) {
    if (params.get(key)) query.set(key, params.get(key));
  }
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/ws?${query.toString()}`);
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") { showError(""); onState(message); }
    else if (message.type === "choices") onChoices(message);
    else if (message.type === "completions") onCompletions(message);
    else if (message.type === "analysis") onAnalysis(message);
    else if (message.type === "drawing") onDrawing(message);
    else if (message.type === "match") onMatch(message);
    else if (message.type === "record") download(message.text, "congo-game.pgn");
    else if (message.type === "error") {
      showError(message.message);
      announce(message.message);
      pending = false;
      queued.length = 0;
      clearSelection(true);
    }
  });
  socket.addEventListener("close", () => showError("Disconnected from the server: reload the page."));
}

function navigate(key) {
  if (!state) return false;
  const ply = { ArrowLeft: state.cursor - 1, ArrowRight: state.cursor + 1, Home: 0, End: state.moves.length }[key];
  if (ply === undefined || ply < 0 || ply > state.moves.length || ply === state.cursor) return ply !== undefined;
  send({ type: "goto", ply });
  return true;
}

function onKey(event) {
  const target = event.target;
  const typing = target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT";
  if (typing) return;
  const onSquare = target.dataset && target.dataset.square;
  if (event.key === "Escape") { cancelChain(); event.preventDefault(); return; }
  if (event.key === "Enter" && path.length > 1 && !(onSquare && targets.includes(target.dataset.square))) {
    stopHere(); event.preventDefault(); return;
  }
  if (onSquare && event.key.startsWith("Arrow")) { moveFocus(target, event.key); event.preventDefault(); return; }
  if (event.key === "f") { flip(); return; }
  if (event.key === " " && !onSquare && target.tagName !== "BUTTON") { send({ type: "best" }); event.preventDefault(); return; }
  if (["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key) && navigate(event.key)) event.preventDefault();
}

// The board drawn from this tab's side, sent when it turns the board.
function onDrawing(message) {
  if (!state || message.fen !== state.fen || !drawingIn(message)) return;
  drawn = drawingIn(message);
  state.svg = drawn;
  if (!path.length) drawBoard(state.svg);
}

function setSide(black) {
  if (flipped === black) return;
  flipped = black;
  placeSquares();
  send({ type: "view", side: side() });
}

function flip() {
  setSide(!flipped);
  if (path.length && !pending) askPath(path);
}

function setup() {
  buildSquares();
  setupDrag();
  $("stop").addEventListener("click", stopHere);
  $("cancel").addEventListener("click", cancelChain);
  $("flip").addEventListener("click", flip);
  $("typed").addEventListener("input", updateTyped);
  $("typed").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && $("typed").value.trim()) {
      send({ type: "move", move: $("typed").value.trim() });
      $("typed").value = "";
      updateTyped();
    }
  });
  $("first").addEventListener("click", () => navigate("Home"));
  $("prev").addEventListener("click", () => navigate("ArrowLeft"));
  $("next").addEventListener("click", () => navigate("ArrowRight"));
  $("last").addEventListener("click", () => navigate("End"));
  $("set-fen").addEventListener("click", () => send({ type: "fen", fen: $("fen").value }));
  $("fen").addEventListener("keydown", (event) => { if (event.key === "Enter") send({ type: "fen", fen: $("fen").value }); });
  $("load").addEventListener("change", async () => {
    const file = $("load").files[0];
    if (!file) return;
    send({ type: "load", text: await file.text() });
    $("load").value = "";
    $("load").blur();
  });
  $("load-paste").addEventListener("click", () => send({ type: "load", text: $("paste").value }));
  $("save").addEventListener("click", () => send({ type: "save" }));
  $("multipv").addEventListener("change", () => send({ type: "multipv", count: +$("multipv").value }));
  $("best").addEventListener("click", () => send({ type: "best" }));
  $("new-game").addEventListener("click", () => {
    setSide($("side").value === "black");
    send({ type: "new", mode: "play", side: $("side").value, limit: $("limit").value, fen: state ? state.root : "" });
  });
  $("takeback").addEventListener("click", () => send({ type: "takeback" }));
  $("resign").addEventListener("click", () => send({ type: "resign" }));
  document.addEventListener("keydown", onKey);
  const link = (mode) => "?" + new URLSearchParams({ token: config.token, mode }).toString();
  $("link-analyse").href = "?" + new URLSearchParams({ token: config.token }).toString();
  $("link-play").href = link("play");
  $("link-match").href = link("match");
  $("link-match").hidden = !config.match;
  const matchView = params.get("mode") === "match";
  $("game-view").hidden = matchView;
  $("match-view").hidden = !matchView;
  connect();
}

setup();
