// The judge's workbench: the page's side.  Plain JavaScript, no build step, nothing fetched from
// elsewhere.  The server holds each game; the page keeps the game's link (setup and moves in the
// address), so a game the server let go is made again from it.  Text from the server is put in
// with textContent; only the position pictures (SVG drawn by the server, every text escaped) go
// in as markup.
"use strict";

const $ = (id) => document.getElementById(id);
const page = {
  catalog: null,      // /api/catalog
  game: null,         // the last game view
  view: "all",        // all, or seat-N
  witnesses: [],      // the witness traces of the chosen rule set
  compare: null,      // {ruling, a, b, onward}
  busy: 0,
};

// ------------------------------------------------------------------ talking to the server

async function api(method, path, body, retry = true) {
  busy(+1);
  try {
    const init = {method, headers: {}};
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (e) {
      throw new Error("the workbench server does not answer (is `tablerules workbench` still running?)");
    }
    const text = await response.text();
    let data = null;
    try { data = JSON.parse(text); } catch (e) { data = null; }
    if (response.ok && data !== null) return data;
    if (data && data.gone && retry && page.game) {  // the server let the game go: make it again from its link
      await reopen(page.game.query);
      return api(method, path.replace(/\/api\/games\/[^/]+/, "/api/games/" + page.game.game), body, false);
    }
    throw new Error(data && data.error ? data.error : `the server answered ${response.status}`);
  } finally {
    busy(-1);
  }
}

function busy(delta) {
  page.busy += delta;
  document.body.dataset.busy = page.busy > 0 ? "1" : "0";
  $("busy").textContent = page.busy > 0 ? "working\u2026" : "";
}

function say(message) {
  const box = $("message");
  box.textContent = message || "";
  box.hidden = !message;
}

async function attempt(work) {
  say("");
  try {
    await work();
  } catch (e) {
    say(e.message || String(e));
  }
}

function gamePath(suffix = "") {
  return `/api/games/${encodeURIComponent(page.game.game)}${suffix}?view=${encodeURIComponent(page.view)}`;
}

// ------------------------------------------------------------------ small DOM helpers

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k === "cls") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function fill(select, items, chosen) {
  select.replaceChildren(...items.map(([value, label]) => el("option", {value, text: label})));
  if (chosen !== undefined && items.some(([v]) => String(v) === String(chosen))) select.value = String(chosen);
}

function ruleset(id) {
  return page.catalog.rulesets.find((r) => r.id === id);
}

// ------------------------------------------------------------------ the setup form

function fillSetup(id, players, deck) {
  const r = ruleset(id);
  fill($("players"), r.players.map((n) => [n, `${n} players`]), players ?? r.players[0]);
  const decks = r.decks.map((d) => [d.value, `${d.value} (${d.description})`]);
  const dflt = (r.decks.find((d) => d.default) || r.decks[0] || {}).value;
  if (deck && !decks.some(([v]) => v === deck)) decks.push([deck, deck]);
  fill($("deck"), decks, deck ?? dflt);
  $("options").replaceChildren(el("legend", {text: "Optional rules"}));
  if (!r.options.length) $("options").append(el("span", {cls: "muted", text: "none in this rule set"}));
  for (const o of r.options) {
    $("options").append(el("label", {title: o.description},
      el("input", {type: "checkbox", value: o.name, "data-option": o.name}), " " + o.name));
  }
  const box = $("rulings");
  box.replaceChildren();
  for (const g of r.rulings) {
    const select = el("select", {"data-ruling": g.id, onchange: rulingsSummary});
    fill(select, g.alternatives.map((a, i) => [a, i === 0 ? `${a} (default)` : a]), g.default);
    box.append(el("label", {cls: "ruling", title: g.question}, el("span", {text: g.name}), select));
  }
  rulingsSummary();
  fill($("compare-ruling"), r.rulings.map((g) => [g.id, g.name]));
  compareAlternatives();
  loadWitnesses(id);
}

function rulingsSummary() {
  const changed = [...document.querySelectorAll("#rulings select")]
    .filter((s) => s.selectedIndex > 0).map((s) => `${s.dataset.ruling.split(".ruling.").pop()}=${s.value}`);
  $("rulings-summary").textContent = changed.length ? changed.join(", ") : "every one at its default";
}

function setupChoices() {
  const rulings = {};
  for (const s of document.querySelectorAll("#rulings select")) {
    if (s.selectedIndex > 0) rulings[s.dataset.ruling] = s.value;
  }
  const options = [...document.querySelectorAll("#options input:checked")].map((i) => i.value);
  return {ruleset: $("ruleset").value, players: Number($("players").value), deck: $("deck").value,
          seed: Number($("seed").value || 1), options, rulings};
}

function syncSetup(view) {
  // the form shows the setup of the game on the board (a loaded vector brings its own)
  if ($("ruleset").value !== view.ruleset) {
    $("ruleset").value = view.ruleset;
    fillSetup(view.ruleset, view.players, view.deck);
  }
  fill($("players"), ruleset(view.ruleset).players.map((n) => [n, `${n} players`]), view.players);
  if (![...$("deck").options].some((o) => o.value === view.deck)) {
    $("deck").append(el("option", {value: view.deck, text: view.deck}));
  }
  $("deck").value = view.deck;
  $("seed").value = view.seed;
  for (const input of document.querySelectorAll("#options input")) input.checked = view.options[input.value] === true;
  for (const s of document.querySelectorAll("#rulings select")) {
    if (view.options[s.dataset.ruling] !== undefined) s.value = view.options[s.dataset.ruling];
  }
  rulingsSummary();
}

// ------------------------------------------------------------------ witnesses

async function loadWitnesses(id) {
  page.witnesses = [];
  fill($("witness"), [["", "loading\u2026"]]);
  try {
    page.witnesses = await api("GET", `/api/witnesses/${encodeURIComponent(id)}`);
  } catch (e) {
    fill($("witness"), [["", "(none could be read)"]]);
    return;
  }
  if ($("ruleset").value !== id) return;
  fill($("witness"), [["", page.witnesses.length ? "choose a ruling's witness" : "(none)"],
    ...page.witnesses.map((w) => [w.key, `${w.ruling.split(".ruling.").pop()}: ${w.label} (${w.steps} moves)`])]);
}

// ------------------------------------------------------------------ showing a game

function render(view) {
  page.game = view;
  page.view = view.view;
  $("game-title").textContent = `${view.title}: ${view.setup}`;
  history.replaceState(null, "", "?" + view.query);
  fill($("view"), [["all", "all-seeing (every hand)"],
    ...Array.from({length: view.players}, (_, s) => [`seat-${s}`, `as seat ${s} sees it`])], view.view);
  $("to-move").textContent = view.to_move === "TERMINAL" ? "the game is over"
    : view.to_move === "CHANCE" ? "chance moves next" : `${view.to_move} to move`;
  $("picture").innerHTML = view.picture;  // SVG drawn by the server; every text in it is escaped
  const notes = [];
  if (view.notice) notes.push(view.notice);
  if (view.origin) {
    notes.push(`Read from ${view.origin.name}` + (view.origin.unchanged ? " (unchanged)" : " (changed since)"));
  }
  if (view.pending_gap) {
    notes.push(`The vector's next move, ${view.pending_gap}, meets a rule gap (ask about it below).`);
    $("ask-text").value = view.pending_gap;
  }
  $("notice").textContent = notes.join(" \u2014 ");
  $("notice").hidden = !notes.length;
  renderOutcome(view);
  $("entries-title").textContent = view.view === "all" ? "The state (the all-seeing view: every hand shown)"
    : `What ${view.view.replace("-", " ")} sees`;
  $("entries").replaceChildren(...view.entries.map(([k, v]) => el("tr", {}, el("th", {text: k}), el("td", {text: v}))));
  renderChoices(view);
  renderHistory(view);
  $("export-link").href = gamePath("/export");
  $("export-link").download = view.export_name;
  $("link").value = location.origin + location.pathname + "?" + view.query;
  document.body.dataset.at = String(view.at);
}

function renderOutcome(view) {
  const box = $("outcome");
  box.replaceChildren();
  if (view.outcome) {
    const detail = (view.outcome.clause ? ` (${view.outcome.clause})` : "") +
      (view.outcome_detail ? `. ${view.outcome_detail}` : "");
    box.append(el("p", {cls: "outcome", text: `The game is over: ${view.outcome.summary}${detail}`}));
  }
  if (view.choices.kind === "gap") {
    const gap = view.choices.gap;
    box.append(el("p", {cls: "gap", text: `The rules are silent here: ${gap.ruling}: ${gap.detail}`}));
  }
}

function renderChoices(view) {
  const c = view.choices;
  const chance = c.kind === "chance";
  $("choices-title").textContent = chance ? `Chance: ${c.count} outcomes` : c.kind === "seat"
    ? `${view.to_move}: ${c.count} legal moves` : "Moves";
  $("draw-random").disabled = $("deal").disabled = !chance;
  $("random-play").disabled = c.kind === "end" || c.kind === "gap";
  const buttons = c.items.map((item) => el("button", {
    type: "button", cls: chance ? "choice chance" : "choice", "data-move": item.move,
    title: chance ? `probability ${item.probability}` : item.move,
    onclick: () => play(item.move),
  }, item.move, chance ? el("span", {cls: "p", text: ` ${item.probability}`}) : null));
  $("choices").replaceChildren(...buttons);
  if (c.count > c.items.length) {
    $("choices").append(el("p", {cls: "muted", text: `${c.count - c.items.length} more not shown: type the move`}));
  }
  if (c.kind === "end") $("choices").append(el("p", {cls: "muted", text: "No move: the game is over."}));
  $("legal-list").replaceChildren(...c.items.map((item) => el("option", {value: item.move})));
  filterChoices();
}

function filterChoices() {
  const words = $("filter").value.toLowerCase().split(/\s+/).filter(Boolean);
  for (const b of document.querySelectorAll("#choices button")) {
    b.hidden = !words.every((w) => b.dataset.move.toLowerCase().includes(w));
  }
}

function renderHistory(view) {
  const items = [el("li", {value: 0, cls: view.at === 0 ? "current" : ""},
    el("button", {type: "button", cls: "step", "data-step": "0", onclick: () => goto(0),
                  text: "the deal (before any move)"}))];
  for (const h of view.history) {
    const label = `${h.actor}: ${h.move}` + (h.probability ? ` (p = ${h.probability})` : "");
    const cls = (h.step === view.at ? "current" : "") + (h.step > view.at ? " ahead" : "");
    items.push(el("li", {value: h.step, cls},
      el("button", {type: "button", cls: "step", "data-step": String(h.step), onclick: () => goto(h.step),
                    text: label})));
  }
  $("history").replaceChildren(...items);
  $("back").disabled = $("first").disabled = view.at === 0;
  $("forward").disabled = $("last").disabled = view.at >= view.length;
  const list = $("history");
  const current = list.querySelector(".current");
  if (current) {  // the history box scrolls to the step shown; the page itself stays where it is
    const below = current.getBoundingClientRect().top - list.getBoundingClientRect().top;
    list.scrollTop = Math.max(0, list.scrollTop + below - list.clientHeight / 2);
  }
}

// ------------------------------------------------------------------ actions

async function newGame(extra = {}) {
  const view = await api("POST", "/api/games", {...setupChoices(), view: "all", ...extra});
  render(view);
}

function linkParams(query) {
  const p = new URLSearchParams(query);
  const rulings = {};
  for (const r of p.getAll("ruling")) {
    const i = r.indexOf("=");
    if (i > 0) rulings[r.slice(0, i)] = r.slice(i + 1);
  }
  const body = {ruleset: p.get("ruleset"), players: Number(p.get("players") || 0) || undefined,
                deck: p.get("deck") || undefined, seed: Number(p.get("seed") || 1), options: p.getAll("option"),
                rulings, moves: p.getAll("m"), view: p.get("view") || "all"};
  if (p.get("at") !== null) body.at = Number(p.get("at"));
  return body;
}

async function reopen(query) {
  const view = await api("POST", "/api/games", linkParams(query), false);
  syncSetup(view);
  render(view);
  return view;
}

async function play(move) {
  await attempt(async () => render(await api("POST", gamePath("/play"), {move})));
}

async function goto(at) {
  await attempt(async () => render(await api("POST", gamePath("/goto"), {at})));
}

async function randomly(count, seats) {
  await attempt(async () => render(await api("POST", gamePath("/play"), {random: count, seats})));
}

async function switchView(view) {
  page.view = view;
  await attempt(async () => render(await api("GET", gamePath())));
}

async function loadGame() {
  let text = $("load-text").value;
  let name = "the text pasted";
  const file = $("load-file").files[0];
  if (file) {
    if (file.size > page.catalog.bounds.max_body_bytes / 2) {
      throw new Error(`${file.name}: larger than the workbench reads`);
    }
    text = await file.text();
    name = file.name;
  }
  if (!text.trim()) throw new Error("choose a file or paste a vector or moves first");
  const kind = text.trim().startsWith("{") ? "itf" : "log";
  const body = kind === "itf" ? {kind, text, name} : {...setupChoices(), kind, text, name};
  const view = await api("POST", "/api/load", body);
  syncSetup(view);
  render(view);
}

async function openWitness() {
  const key = $("witness").value;
  if (!key) throw new Error("choose a witness first");
  const view = await api("POST", "/api/witness", {ruleset: $("ruleset").value, key});
  syncSetup(view);
  render(view);
  const w = view.witness;
  const readings = Object.entries(w.readings || {}).map(([k, v]) => `${k}: ${v}`).join("; ");
  $("witness-note").textContent = `${w.file}: ${w.note}` + (readings ? ` After it: ${readings}.` : "");
  if (w.compare) {
    $("compare-ruling").value = w.ruling;
    compareAlternatives(w.compare[0], w.compare[1]);
  }
}

// ------------------------------------------------------------------ ask

async function ask(move) {
  const a = await api("POST", gamePath("/ask"), {move});
  renderAnswer(a);
}

function answerLine(x) {
  return `${x.verdict}` + (x.clause ? `, ${x.clause}` : "") +
    (x.detail && x.verdict !== "legal" ? ` (${x.detail})` : "");
}

function renderAnswer(a) {
  const box = $("answer");
  const x = a.answer;
  box.dataset.verdict = x.verdict;
  box.dataset.clause = x.clause || "";
  const parts = [
    el("p", {cls: "verdict " + (x.verdict === "legal" ? "yes" : "no")},
      el("strong", {text: `${a.move}: ${x.verdict}`}), x.clause ? ` \u2014 decided by ${x.clause}` : ""),
  ];
  if (x.wording) parts.push(el("p", {cls: "wording", text: `Our words: ${x.wording}`}));
  if (x.detail) parts.push(el("p", {cls: "muted", text: x.detail}));
  const rb = a.rulebook;
  if (rb) {
    const where = `${rb.file}, \u201c${rb.heading}\u201d` + (rb.lines && rb.lines.length
      ? (rb.lines[0] === rb.lines[1] ? `, line ${rb.lines[0]}` : `, lines ${rb.lines[0]}\u2013${rb.lines[1]}`) : "");
    const basis = rb.basis === "reading"
      ? ` (a reading: ${rb.reading_of || "an interpretation where the text is silent"})` : "";
    parts.push(el("p", {cls: "rulebook", text: `The rulebook: ${where}${basis}`}));
    if (rb.text) {
      parts.push(el("blockquote", {}, ...rb.text.map(([n, line]) => el("div", {text: `${n} | ${line}`}))));
    } else if (rb.lines && rb.lines.length) {
      parts.push(el("p", {cls: "muted", text: "(the rulebook file is not at hand here, so its lines are not " +
        "printed; set TABLERULES_SHARED to the folder holding seeds/)"}));
    }
  }
  if (a.deciding_ruling) {
    const r = a.deciding_ruling;
    parts.push(el("p", {text: `The ruling: ${r.question}`}));
  }
  parts.push(el("h3", {text: `Rulings whose alternatives answer differently: ${a.rulings.length || "none"}`}));
  parts.push(el("p", {cls: "muted",
    text: `${a.alternatives_tried} other alternatives tried, each replaying the line`}));
  for (const r of a.rulings) {
    const rows = Object.entries(r.answers).map(([alt, ans]) => el("tr", {"data-alternative": alt},
      el("th", {text: alt + (alt === r.chosen ? " (this game's)" : "")}), el("td", {text: answerLine(ans)})));
    const text = a.ruling_texts[r.ruling];
    parts.push(el("div", {cls: "ruling-answers", "data-ruling": r.ruling},
      el("p", {}, el("strong", {text: r.ruling}), text ? ` \u2014 ${text.question}` : ""),
      el("table", {}, ...rows)));
  }
  if (a.departs.length) {
    parts.push(el("h3", {text: "Alternatives under which this line could not have been played"}));
    parts.push(el("ul", {}, ...a.departs.map((d) => el("li", {"data-departs": `${d.ruling}=${d.alternative}`,
      text: `${d.ruling}=${d.alternative}: ` + (d.step !== null && d.step !== undefined ? `step ${d.step}, ` : "") +
        (d.clause || d.verdict)}))));
  }
  parts.push(el("p", {cls: "muted"}, "The same question on the command line: ", el("code", {text: a.judge_command})));
  box.replaceChildren(...parts);
}

// ------------------------------------------------------------------ compare

function compareAlternatives(a, b) {
  const r = ruleset($("ruleset").value);
  const g = r && r.rulings.find((x) => x.id === $("compare-ruling").value);
  if (!g) return;
  const items = g.alternatives.map((x) => [x, x]);
  fill($("compare-a"), items, a ?? g.alternatives[0]);
  fill($("compare-b"), items, b ?? g.alternatives[1] ?? g.alternatives[0]);
}

async function compare(search = false) {
  const c0 = page.compare;
  if (!c0 || c0.ruling !== $("compare-ruling").value || c0.a !== $("compare-a").value
      || c0.b !== $("compare-b").value || c0.at !== page.game.at || c0.game !== page.game.game) {
    page.compare = {ruling: $("compare-ruling").value, a: $("compare-a").value, b: $("compare-b").value,
                    onward: [], at: page.game.at, game: page.game.game};
  }
  const c = page.compare;
  const result = await api("POST", gamePath("/compare"), {ruling: c.ruling, a: c.a, b: c.b, onward: c.onward, search});
  renderComparison(result);
}

function renderComparison(r) {
  const box = $("comparison");
  const parts = [el("p", {}, el("strong", {text: r.ruling}), ` \u2014 ${r.question}`)];
  const parting = r.parts;
  box.dataset.parts = parting ? String(parting.step) : "";
  if (parting) {
    const where = parting.step <= r.at ? `at step ${parting.step} of the line so far`
      : `at step ${parting.step}, ${parting.step - r.at} moves on from here`;
    parts.push(el("p", {cls: "parts"}, el("strong", {text: `They part ${where}, ${parting.what}.`}),
      el("br"), `${r.a}: ${parting.a}`, el("br"), `${r.b}: ${parting.b}`));
  } else {
    parts.push(el("p", {cls: "parts", text: `They do not part along these ${r.at + r.onward.length} moves.`}));
  }
  if (r.onward.length) parts.push(el("p", {cls: "muted", text: `Played on from here: ${r.onward.join(", ")}`}));
  const sides = el("div", {cls: "sides"});
  for (const s of r.sides) {
    const col = el("div", {cls: "side", "data-alternative": s.alternative},
      el("h3", {text: s.alternative}), el("p", {cls: "muted", text: r.meanings[s.alternative] || ""}));
    if (s.picture) {
      const pic = el("div", {cls: "picture"});
      pic.innerHTML = s.picture;  // SVG drawn by the server
      col.append(pic);
    }
    if (s.reading) col.append(el("p", {text: s.reading}));
    if (s.stopped) col.append(el("p", {cls: "gap", text: s.stopped}));
    sides.append(col);
  }
  parts.push(sides);
  if (r.next.length) {
    parts.push(el("p", {text: "Play on under both (a mark says where a move is open):"}));
    parts.push(el("div", {cls: "next"}, ...r.next.slice(0, 200).map((n) => el("button", {
      type: "button", cls: "choice", "data-move": n.move,
      onclick: () => attempt(async () => { page.compare.onward.push(n.move); await compare(); }),
    }, n.move, el("span", {cls: "p", text: ` ${n.a ? "a" : "\u2013"}${n.b ? "b" : "\u2013"}`})))));
  }
  const tools = el("div", {cls: "row"});
  if (r.onward.length) {
    tools.append(el("button", {type: "button", text: "\u25C0 one move back",
      onclick: () => attempt(async () => { page.compare.onward.pop(); await compare(); })}));
  }
  parts.push(tools);
  if (r.search) {
    const s = r.search;
    parts.push(el("p", {cls: "search", "data-found": s.found ? "1" : "0", text: s.statement}));
    if (s.found && s.moves.length) {
      parts.push(el("p", {cls: "muted", text: `The way on: ${s.moves.join(", ")}`}));
      tools.append(el("button", {type: "button", text: "Play the way on to where they part",
        onclick: () => attempt(async () => { page.compare.onward.push(...s.moves); await compare(); })}));
    }
  }
  box.replaceChildren(...parts);
}

// ------------------------------------------------------------------ wiring

function wire() {
  $("ruleset").addEventListener("change", () => fillSetup($("ruleset").value));
  $("setup-form").addEventListener("submit", (e) => { e.preventDefault(); attempt(() => newGame()); });
  $("view").addEventListener("change", () => switchView($("view").value));
  $("filter").addEventListener("input", filterChoices);
  $("play-form").addEventListener("submit", (e) => { e.preventDefault(); play($("play-text").value); });
  $("draw-random").addEventListener("click", () => randomly(1, false));
  $("deal").addEventListener("click", () => randomly(page.catalog.bounds.max_line, false));
  $("random-play").addEventListener("click", () => randomly(page.catalog.bounds.max_line, true));
  $("first").addEventListener("click", () => goto(0));
  $("back").addEventListener("click", () => goto(Math.max(0, page.game.at - 1)));
  $("forward").addEventListener("click", () => goto(Math.min(page.game.length, page.game.at + 1)));
  $("last").addEventListener("click", () => goto(page.game.length));
  $("ask-form").addEventListener("submit", (e) => { e.preventDefault(); attempt(() => ask($("ask-text").value)); });
  $("compare-ruling").addEventListener("change", () => compareAlternatives());
  $("compare-form").addEventListener("submit", (e) => { e.preventDefault(); attempt(() => compare(false)); });
  $("compare-search").addEventListener("click", () => attempt(() => compare(true)));
  $("load-button").addEventListener("click", () => attempt(loadGame));
  $("open-witness").addEventListener("click", () => attempt(openWitness));
  $("copy-link").addEventListener("click", () => attempt(async () => {
    $("link").select();
    if (navigator.clipboard) await navigator.clipboard.writeText($("link").value);
  }));
}

async function start() {
  wire();
  busy(+1);
  try {
    await attempt(async () => {
      page.catalog = await api("GET", "/api/catalog");
      fill($("ruleset"), page.catalog.rulesets.map((r) => [r.id, `${r.title} (${r.id})`]));
      const params = new URLSearchParams(location.search);
      const chosen = params.get("ruleset");
      const first = chosen && ruleset(chosen) ? chosen : page.catalog.rulesets[0].id;
      $("ruleset").value = first;
      fillSetup(first);
      if (!params.get("ruleset")) {
        await newGame();
        return;
      }
      try {
        await reopen(location.search);
      } catch (e) {  // a link that does not reopen: say why, and start afresh on the form's defaults
        await newGame();
        say(`This link does not reopen a position: ${e.message}`);
      }
    });
  } finally {
    busy(-1);
  }
}

document.addEventListener("DOMContentLoaded", start);
