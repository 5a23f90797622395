// The explainer page: state, the API calls, the board's clicks and keys.
// Every HTML the page inserts comes from the server, where each text is escaped;
// every text of the input or of a message is set as text, never as HTML.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const init = JSON.parse($("state").textContent);
  const S = {
    grid: init.grid || "", index: init.index || 1, fmt: init.input_format || "auto",
    box: init.box || null, path: init.path || init.default_path, moves: init.moves || "",
    step: init.step || 0, info: null, frame: null, sel: null, remove: false,
    past: [], future: [], frames: new Map(),
    filter: "", paint: null, colours: new Map(), partial: false,
  };
  //: the colours a player can give cells by hand (and "clear")
  const PAINTS = ["#ffc9c9", "#b2f2bb", "#a5d8ff", "#ffec99", "#eebefa"];
  const SVGNS = "http://www.w3.org/2000/svg";
  let queue = Promise.resolve();

  // -- plumbing ---------------------------------------------------------
  function act(fn) {  // user actions run one after another, in order
    queue = queue.then(fn).catch(report);
    return queue;
  }
  function report(err) {
    say(err && err.message ? err.message : String(err), "error");
  }
  function say(text, kind) {
    const m = $("message");
    m.textContent = text;
    m.className = "message" + (kind === "ok" ? " ok" : "");
    m.hidden = !text;
  }
  async function api(name, body) {
    // the work goes on while the player waits: say so, with the seconds spent
    const t0 = Date.now(), busy = $("busy");
    const tick = () => {
      const sec = Math.round((Date.now() - t0) / 1000);
      busy.textContent = "Working… " + sec + " s" + (sec >= 4 ? " (a hard grid: the path is "
        + "walked step by step; the server's limit is " + (init.time_limit || "no") + " s)" : "");
      busy.hidden = false;
    };
    const timer = setTimeout(tick, 300), ticker = setInterval(tick, 1000);
    try {
      const res = await fetch("/api/" + name, {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      let data = null;
      try { data = await res.json(); } catch (e) { data = null; }
      if (!res.ok) {
        const err = new Error((data && data.detail) || res.status + " " + res.statusText);
        err.kind = data && data.error;
        throw err;
      }
      return data;
    } finally {
      clearTimeout(timer); clearInterval(ticker);
      busy.hidden = true;
    }
  }
  function position() {
    return { grid: S.grid, index: S.index, input_format: S.fmt, box: S.box,
             moves: S.moves, path: S.path };
  }
  function updateURL() {
    const p = new URLSearchParams();
    p.set("grid", S.grid);
    if (S.fmt !== "auto") p.set("fmt", S.fmt);
    if (S.box) p.set("box", S.box);
    if (S.index !== 1) p.set("index", String(S.index));
    if (S.moves) p.set("moves", S.moves);
    if (S.step) p.set("step", String(S.step));
    if (S.path !== init.default_path) p.set("path", S.path);
    history.replaceState(null, "", "?" + p.toString());
  }
  function node(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  // -- the path and its frames -------------------------------------------
  async function load(step, background) {
    // the frame asked for comes first (a walk up to it only: quick even where
    // the whole path of a hard grid takes long), then the whole path
    const f = await api("step", Object.assign(position(), { number: step }));
    S.info = { size: f.size, block: f.block, symbols: f.symbols, total: f.total, end: f.total === null ? step + 1 : f.total + 1,
               steps: [], moves: S.moves ? S.moves.split(" ") : [], status: "partial", wrong: null,
               grade: null, sentence: "", position: S.grid, input_format: S.fmt, box: S.box };
    S.partial = true;
    S.frames.set([S.grid, S.moves, S.path, step].join("|"), f);
    $("app").hidden = false;
    renderInfo();
    await show(step);
    const whole = wholePath();
    if (!background) await whole;
    else whole.catch(report);  // the player steps on meanwhile
  }
  async function wholePath() {
    const key = [S.grid, S.moves, S.path].join("|");
    let info;
    try {
      info = await api("explain", position());
    } catch (err) {
      if (err.kind !== "timeout") throw err;
      say("The whole path took longer than the server's time limit: step on, each step is "
          + "walked as far as it goes (serve --time-limit sets a longer limit).", "error");
      return;
    }
    if (key !== [S.grid, S.moves, S.path].join("|")) return;  // another grid since
    S.info = info; S.partial = false;
    S.grid = info.position; S.index = 1; S.fmt = info.input_format; S.box = info.box;
    renderInfo();
    updateButtons(); markCurrent();
    if (S.frame) updateWhere(S.frame, S.step);
  }
  function renderInfo() {
    const info = S.info, g = info.grade, r = $("rating");
    r.textContent = "";
    if (S.partial) {
      r.append(node("span", "Walking the whole path…", "level"));
    } else if (g && g.verdict === "ok") {
      r.append(node("span", "Level " + g.level + (g.rating ? " (" + g.rating + ")" : ""), "level"));
      if (g.se !== null && g.se !== undefined) r.append(" · SE " + Number(g.se).toFixed(1));
      r.append(" · " + info.total + " steps" + (g.depth > 1 ? " · trials nested " + g.depth + " deep" : ""));
    } else {
      r.append(node("span", info.sentence, "level"));
    }
    const list = $("steps");
    list.textContent = "";
    for (const s of info.steps) {  // the step log: a line a step, labelled
      const b = node("button", undefined, s.depth ? "trial" : "");
      b.append(node("span", String(s.number), "n"),
               node("span", s.se !== null && s.se !== undefined ? "SE " + Number(s.se).toFixed(1)
                            : "level " + s.level, "rate"),
               node("span", s.summary, "what"));
      b.type = "button"; b.dataset.n = String(s.number); b.dataset.depth = String(s.depth);
      b.title = s.name + (s.common_name && s.common_name.toLowerCase() !== s.name.toLowerCase()
                          ? " (" + s.common_name + ")" : "");
      const li = node("li"); li.append(b); list.append(li);
    }
    if (!S.partial) {
      const end = node("button", undefined, info.status === "contradiction" ? "bad" : "");
      end.append(node("span", String(info.end), "n"), node("span", "", "rate"),
                 node("span", {solved: "the solution", stuck: "the rules stop",
                               contradiction: "contradiction"}[info.status], "what"));
      end.type = "button"; end.dataset.n = String(info.end);
      const li = node("li"); li.append(end); list.append(li);
    }
    $("count").textContent = S.partial ? "(walking…)" : "(" + info.total + ")";
    $("jump-to").max = String(info.end);
    $("moves-text").textContent = info.moves.length ? info.moves.join(" ") : "none yet";
    const st = $("status");
    st.className = "status" + (info.wrong ? " wrong" : "");
    st.textContent = info.wrong ? info.wrong.message : "";
    st.dataset.status = info.status;
    buildPad(); buildTools();
  }
  async function frameAt(k) {
    const key = [S.grid, S.moves, S.path, k].join("|");
    let f = S.frames.get(key);
    if (!f) {
      f = await api("step", Object.assign(position(), { number: k }));
      if (S.frames.size > 400) S.frames.clear();
      S.frames.set(key, f);
    }
    return f;
  }
  function updateWhere(f, k) {
    const total = S.info.total === null || S.info.total === undefined ? "?" : S.info.total;
    $("where").textContent = f.kind === "start" ? "Start · 0/" + total
      : f.kind === "end" ? "End · " + total + "/" + total : "Step " + k + "/" + total;
    $("where").dataset.step = String(k);
  }
  function markCurrent() {
    for (const b of $("steps").querySelectorAll("button")) {
      if (b.dataset.n === String(S.step)) {
        b.setAttribute("aria-current", "step");
        const list = $("steps"), li = b.parentElement;  // the log scrolls, not the page
        if (li.offsetTop < list.scrollTop || li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight) {
          list.scrollTop = li.offsetTop - list.clientHeight / 2;
        }
      } else b.removeAttribute("aria-current");
    }
  }
  async function show(k) {
    const f = await frameAt(k);
    S.step = k; S.frame = f;
    if (S.partial) S.info.end = f.kind === "end" ? k : Math.max(S.info.end, k + 1);
    $("board").innerHTML = f.board;  // an SVG drawn by the server
    $("text").innerHTML = f.text;    // HTML written by the server, every text escaped
    updateWhere(f, k);
    markCurrent();
    const st = $("status");
    if (!S.info.wrong) {
      st.className = "status" + (f.kind === "end" && S.info.status === "solved" ? " solved" : "");
      st.textContent = f.kind === "end" ? (S.info.status === "solved" ? "Solved! " : "") + S.info.sentence : "";
    }
    $("hint").hidden = true;
    drawOverlays(); updateButtons(); updateURL();
    // the next frame, ahead of time (not while the whole path is walked: one walk at a time)
    if (k < S.info.end && !S.partial) frameAt(k + 1).catch(() => {});
  }
  function updateButtons() {
    const end = S.info ? S.info.end : 0;
    $("first").disabled = $("prev").disabled = S.step <= 0;
    $("next").disabled = S.step >= end || (S.partial && S.frame && S.frame.kind === "end");
    $("last").disabled = S.step >= end || S.partial;
    $("undo").disabled = !S.past.length;
    $("redo").disabled = !S.future.length;
  }

  // -- history -------------------------------------------------------------
  function snapshot() { return { moves: S.moves, step: S.step }; }
  async function restore(st) {
    say("");  // "Move ... made" speaks of a move that is undone now
    const changed = st.moves !== S.moves;
    S.moves = st.moves;
    if (changed) await load(st.step); else await show(st.step);
  }
  async function go(k) {
    if (!S.info) return;
    k = Math.max(0, Math.min(S.info.end, k));
    if (k === S.step) return;
    S.past.push(snapshot()); S.future = [];
    say("");
    await show(k);
  }
  async function undo() {
    if (!S.past.length) return;
    S.future.push(snapshot());
    await restore(S.past.pop());
  }
  async function redo() {
    if (!S.future.length) return;
    S.past.push(snapshot());
    await restore(S.future.pop());
  }

  // -- hints and moves -----------------------------------------------------
  async function hint(level) {
    if (!S.info) return;
    const h = await api("hint", Object.assign(position(), { after: S.step, level: level }));
    const box = $("hint");
    box.textContent = "";
    box.append(node("h3", "Hint (" + level + ")"));
    if (h.html) {  // the full step, written once
      const div = node("div", undefined, "full");
      div.innerHTML = h.html;  // written by the server, every text escaped
      box.append(div);
    } else {
      box.append(node("p", h.text));
    }
    if (h.board) {  // the position the hint speaks of, not the last step's highlight
      $("board").innerHTML = h.board;  // an SVG drawn by the server
      drawOverlays();
    }
    box.dataset.level = level;
    box.hidden = false;
  }
  async function move(text) {
    if (!S.info) return;
    const r = await api("moves", Object.assign(position(), { after: S.step, move: text }));
    const before = snapshot();
    S.moves = r.moves;
    try {
      await load(0);
    } catch (err) {
      S.moves = before.moves;
      throw err;
    }
    S.past.push(before); S.future = [];
    updateButtons();
    if (!S.info.wrong) say("Move " + r.move + " made: steps and hints go on from here.", "ok");
    else say("");
  }
  function cellName(c) {
    const n = S.info.size;
    return "r" + (Math.floor(c / n) + 1) + "c" + (c % n + 1);
  }
  function moveOn(cell, sym, remove) {
    const f = S.frame;
    if (f.values[cell] !== ".") { say(cellName(cell) + " already holds " + f.values[cell] + ".", "error"); return; }
    if (f.candidates[cell].indexOf(sym) < 0) {
      say(sym + " is not a candidate of " + cellName(cell) + " here.", "error"); return;
    }
    act(() => move(cellName(cell) + (remove ? "!=" : "=") + sym));
  }

  // -- the board -----------------------------------------------------------
  function select(cell) {
    S.sel = cell; drawSelection();
    const f = S.frame, v = f.values[cell];
    $("cell").textContent = "Row " + (Math.floor(cell / S.info.size) + 1) + ", column "
      + (cell % S.info.size + 1) + (v !== "." ? ": holds " + v
      : ": candidates " + f.candidates[cell].split("").join(", "));
  }
  // -- overlays: the digit filter, the player's colours, the chosen cell ----
  function cellXY(c) {
    const n = S.info.size;
    return [60 + (c % n) * 100, 60 + Math.floor(c / n) * 100];
  }
  function svgEl(tag, attrs) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k in attrs) e.setAttribute(k, String(attrs[k]));
    return e;
  }
  function drawOverlays() {
    const svg = $("board").querySelector("svg");
    if (!svg || !S.info || !S.frame) return;
    for (const old of svg.querySelectorAll(".overlay")) old.remove();
    const under = svgEl("g", { class: "overlay colours" });
    for (const [c, colour] of S.colours) {
      const [x, y] = cellXY(c);
      under.append(svgEl("rect", { x: x, y: y, width: 100, height: 100, fill: colour,
                                   "fill-opacity": 0.55, "data-cell": c }));
    }
    // under the values and candidates: after the backgrounds
    const frame = svg.querySelector("path, use");
    if (frame) svg.insertBefore(under, frame); else svg.append(under);
    svg.classList.toggle("filtered", !!S.filter);
    if (S.filter) {
      const g = svgEl("g", { class: "overlay filter" });
      const i = S.info.symbols.indexOf(S.filter), a = S.info.block[0], b = S.info.block[1];
      const cands = S.frame.candidates, vals = S.frame.values;
      for (let c = 0; c < cands.length; c++) {
        if (vals[c] !== "." || cands[c].indexOf(S.filter) < 0) continue;
        const [x, y] = cellXY(c);
        const cx = x + ((i % b) + 0.5) * 100 / b, cy = y + (Math.floor(i / b) + 0.5) * 100 / a;
        g.append(svgEl("circle", { cx: cx, cy: cy, r: 15, fill: "#fff3bf", stroke: "#f08c00",
                                   "stroke-width": 3 }));
        const t = svgEl("text", { x: cx, y: cy + 9, "font-size": 26, "font-weight": "bold",
                                  "text-anchor": "middle", fill: "#d9480f" });
        t.textContent = S.filter;
        g.append(t);
      }
      svg.append(g);
    }
    drawSelection();
  }
  function drawSelection() {
    const svg = $("board").querySelector("svg");
    if (!svg || S.sel === null || !S.info) return;
    const n = S.info.size, r = document.createElementNS(SVGNS, "rect");
    r.setAttribute("class", "sel overlay");
    r.setAttribute("x", String(60 + (S.sel % n) * 100 + 4));
    r.setAttribute("y", String(60 + Math.floor(S.sel / n) * 100 + 4));
    r.setAttribute("width", "92"); r.setAttribute("height", "92");
    svg.append(r);
  }
  function onBoardClick(e) {
    const svg = $("board").querySelector("svg");
    if (!svg || !S.info) return;
    const pt = svg.createSVGPoint();
    pt.x = e.clientX; pt.y = e.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    const n = S.info.size, a = S.info.block[0], b = S.info.block[1];
    const col = Math.floor((p.x - 60) / 100), row = Math.floor((p.y - 60) / 100);
    if (row < 0 || col < 0 || row >= n || col >= n) return;
    const cell = row * n + col;
    if (S.paint !== null) {  // colouring by hand: a click colours the cell (again: clears it)
      if (S.paint === "" || S.colours.get(cell) === S.paint) S.colours.delete(cell);
      else S.colours.set(cell, S.paint);
      drawOverlays();
      return;
    }
    if (S.sel === cell && S.frame.values[cell] === ".") {
      const sc = Math.floor((p.x - 60 - col * 100) / (100 / b));
      const sr = Math.floor((p.y - 60 - row * 100) / (100 / a));
      const sym = S.info.symbols[sr * b + sc];
      if (sym) moveOn(cell, sym, S.remove || e.shiftKey);
      return;
    }
    select(cell);
  }
  function buildPad() {
    const pad = $("pad-values");
    pad.textContent = "";
    for (const sym of S.info.symbols) {
      const b = node("button", sym);
      b.type = "button"; b.dataset.sym = sym;
      pad.append(b);
    }
    labelPad();
  }
  function buildTools() {
    const sel = $("filter");
    if (sel.options.length !== S.info.symbols.length + 1) {
      sel.length = 1;
      for (const sym of S.info.symbols) {
        const o = node("option", "only " + sym); o.value = sym; sel.append(o);
      }
    }
    sel.value = S.filter;
    const box = $("paints");
    if (box.childElementCount) return;
    for (const colour of PAINTS.concat([""])) {
      const b = node("button", colour ? "" : "off", "paint");
      b.type = "button"; b.dataset.colour = colour;
      if (colour) { b.style.background = colour; b.setAttribute("aria-label", "Colour cells " + colour); }
      else b.setAttribute("aria-label", "Stop colouring (a click chooses a cell again)");
      b.setAttribute("aria-pressed", "false");
      box.append(b);
    }
    const clear = node("button", "clear", "paint"); clear.type = "button"; clear.id = "paint-clear";
    clear.setAttribute("aria-label", "Clear the colours");
    box.append(clear);
  }
  function setPaint(colour) {
    S.paint = colour === "" || colour === S.paint ? null : colour;
    for (const b of $("paints").querySelectorAll("button[data-colour]")) {
      b.setAttribute("aria-pressed", String(S.paint !== null && b.dataset.colour === S.paint));
    }
    $("board").classList.toggle("painting", S.paint !== null);
  }
  function labelPad() {
    for (const b of $("pad-values").querySelectorAll("button")) {
      b.setAttribute("aria-label", (S.remove ? "Remove candidate " : "Place ") + b.dataset.sym);
    }
    $("mode").setAttribute("aria-pressed", String(S.remove));
  }
  function press(sym, remove) {
    if (S.sel === null) { say("Choose a cell first (click it, or focus the board and use the arrows).", "error"); return; }
    moveOn(S.sel, sym, remove);
  }
  function symbolOf(e) {
    const m = /^(?:Digit|Numpad)(\d)$/.exec(e.code || "");
    const key = m ? m[1] : (e.key || "").toUpperCase();
    return key.length === 1 && S.info && S.info.symbols.indexOf(key) >= 0 ? key : null;
  }

  // -- keys ------------------------------------------------------------------
  function onKey(e) {
    const t = e.target, typing = /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName);
    if (typing || e.altKey || e.metaKey) return;
    const onBoard = t === $("board"), k = e.key;
    if (e.ctrlKey) {
      if (k === "z" && !e.shiftKey) act(undo);
      else if (k === "y" || (k === "Z" && e.shiftKey)) act(redo);
      else return;
      e.preventDefault(); return;
    }
    if (onBoard && S.info && /^Arrow/.test(k)) {
      const n = S.info.size, c = S.sel === null ? 0 : S.sel;
      const r = Math.floor(c / n), q = c % n;
      const to = { ArrowUp: [r - 1, q], ArrowDown: [r + 1, q], ArrowLeft: [r, q - 1], ArrowRight: [r, q + 1] }[k];
      select(((to[0] + n) % n) * n + (to[1] + n) % n);
      e.preventDefault(); return;
    }
    const sym = S.sel !== null ? symbolOf(e) : null;
    if (sym && /^(?:Digit|Numpad)/.test(e.code || "") || (sym && onBoard)) {
      press(sym, S.remove || e.shiftKey); e.preventDefault(); return;
    }
    const keys = {
      j: () => act(() => go(S.step + 1)), ArrowRight: () => act(() => go(S.step + 1)),
      k: () => act(() => go(S.step - 1)), ArrowLeft: () => act(() => go(S.step - 1)),
      Home: () => act(() => go(0)), End: () => act(() => go(S.info ? S.info.end : 0)),
      u: () => act(undo), r: () => act(redo),
      t: () => act(() => hint("technique")), w: () => act(() => hint("where")),
      f: () => act(() => hint("full")), g: () => $("jump-to").focus(),
      m: () => { S.remove = !S.remove; labelPad(); },
    };
    if (keys[k]) { keys[k](); e.preventDefault(); }
  }

  // -- wiring ----------------------------------------------------------------
  function submitGrid(e) {
    if (e) e.preventDefault();
    const grid = $("grid").value, index = parseInt($("index").value, 10) || 1;
    const path = $("path").value;
    if (!grid.trim()) { say("Type or paste a grid first.", "error"); return; }
    say("");
    act(async () => {  // in the queue: after what the page is doing now
      Object.assign(S, { grid: grid, index: index, fmt: "auto", box: null, path: path,
                         moves: "", past: [], future: [], sel: null, colours: new Map() });
      S.frames.clear();
      try {
        await load(0, true);
      } catch (err) {
        S.info = null; $("app").hidden = true;
        throw err;
      }
    });
  }
  function openFile() {
    const file = $("file").files[0];
    if (!file) return;
    if (file.size > init.max_body - 4096) {
      say("This file is too large for the page (" + Math.round(file.size / 1024) + " KB): "
          + "open it with python -m grader serve FILE --index N.", "error");
      return;
    }
    file.text().then((text) => { $("grid").value = text; submitGrid(); }, report);
  }
  function wire() {
    $("grid-form").addEventListener("submit", submitGrid);
    $("file").addEventListener("change", openFile);
    $("path").addEventListener("change", () => {
      const path = $("path").value;
      act(async () => { if (S.info) { S.path = path; await load(0); } });
    });
    $("first").addEventListener("click", () => act(() => go(0)));
    $("prev").addEventListener("click", () => act(() => go(S.step - 1)));
    $("next").addEventListener("click", () => act(() => go(S.step + 1)));
    $("last").addEventListener("click", () => act(() => go(S.info.end)));
    $("undo").addEventListener("click", () => act(undo));
    $("redo").addEventListener("click", () => act(redo));
    for (const level of init.hints) {  // grader.explainer.choices.HINT_LEVELS
      $("hint-" + level).addEventListener("click", () => act(() => hint(level)));
    }
    $("jump").addEventListener("submit", (e) => {
      e.preventDefault();
      const n = parseInt($("jump-to").value, 10);
      if (!isNaN(n)) act(() => go(n));
    });
    $("move-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = $("move").value.trim();
      if (text) act(() => move(text)).then(() => { $("move").value = ""; });
    });
    $("steps").addEventListener("click", (e) => {
      const b = e.target.closest("button");
      if (b) act(() => go(parseInt(b.dataset.n, 10)));
    });
    $("board").addEventListener("click", onBoardClick);
    $("board").addEventListener("focus", () => { if (S.sel === null && S.info) select(0); });
    $("pad").addEventListener("click", (e) => {
      const b = e.target.closest("button");
      if (!b) return;
      if (b.id === "mode") { S.remove = !S.remove; labelPad(); return; }
      press(b.dataset.sym, S.remove);
    });
    $("filter").addEventListener("change", () => { S.filter = $("filter").value; drawOverlays(); });
    $("paints").addEventListener("click", (e) => {
      const b = e.target.closest("button");
      if (!b) return;
      if (b.id === "paint-clear") { S.colours.clear(); drawOverlays(); return; }
      setPaint(b.dataset.colour);
    });
    wireEditor();
    document.addEventListener("keydown", onKey);
  }

  // -- the givens, entered on a board ----------------------------------------
  const E = { cells: Array(81).fill("."), sel: 0 };
  function drawEditor() {
    const g = $("editor-grid");
    if (!g.childElementCount) {
      for (let c = 0; c < 81; c++) {
        const b = node("button", "", "ecell");
        b.type = "button"; b.dataset.cell = String(c);
        b.setAttribute("aria-label", "r" + (Math.floor(c / 9) + 1) + "c" + (c % 9 + 1));
        if (c % 9 === 2 || c % 9 === 5) b.classList.add("bright");
        if (Math.floor(c / 9) === 2 || Math.floor(c / 9) === 5) b.classList.add("bbottom");
        g.append(b);
      }
      const pad = $("editor-pad");
      for (const sym of "123456789") {
        const b = node("button", sym); b.type = "button"; b.dataset.sym = sym; pad.append(b);
      }
      const del = node("button", "erase"); del.type = "button"; del.dataset.sym = "."; pad.append(del);
    }
    let n = 0;
    for (const b of g.children) {
      const c = +b.dataset.cell, v = E.cells[c];
      b.textContent = v === "." ? "" : v;
      if (v !== ".") n++;
      b.classList.toggle("chosen", c === E.sel);
    }
    $("editor-count").textContent = n + " givens";
  }
  function setGiven(sym) {
    E.cells[E.sel] = sym;
    if (sym !== ".") E.sel = Math.min(80, E.sel + 1);
    drawEditor();
  }
  function wireEditor() {
    $("edit-givens").addEventListener("click", () => {
      const ed = $("editor"), open = ed.hidden;
      ed.hidden = !open;
      $("edit-givens").setAttribute("aria-expanded", String(open));
      if (open) {
        const text = $("grid").value.replace(/\s+/g, "");
        if (/^[0-9.]{81}$/.test(text)) E.cells = text.replace(/0/g, ".").split("");
        drawEditor(); $("editor-grid").focus();
      }
    });
    $("editor-grid").addEventListener("click", (e) => {
      const b = e.target.closest("button");
      if (b) { E.sel = +b.dataset.cell; drawEditor(); }
    });
    $("editor-pad").addEventListener("click", (e) => {
      const b = e.target.closest("button");
      if (b) setGiven(b.dataset.sym);
    });
    $("editor-grid").addEventListener("keydown", (e) => {
      const k = e.key;
      if (/^[1-9]$/.test(k)) setGiven(k);
      else if (k === "Backspace" || k === "Delete" || k === "0" || k === ".") setGiven(".");
      else if (/^Arrow/.test(k)) {
        const d = { ArrowUp: -9, ArrowDown: 9, ArrowLeft: -1, ArrowRight: 1 }[k];
        E.sel = (E.sel + d + 81) % 81; drawEditor();
      } else return;
      e.preventDefault(); e.stopPropagation();
    });
    $("editor-clear").addEventListener("click", () => { E.cells = Array(81).fill("."); E.sel = 0; drawEditor(); });
    $("editor-use").addEventListener("click", () => {
      $("grid").value = E.cells.join("");
      $("editor").hidden = true; $("edit-givens").setAttribute("aria-expanded", "false");
      submitGrid();
    });
  }

  wire();
  if (S.grid.trim()) {
    act(() => load(S.step, true));
  } else {
    $("grid").focus();
  }
})();
