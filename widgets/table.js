// canasta-tutor card table: the browser side of canasta_tutor.ui.table.CanastaTable.
//
// Python is the single source of truth.  This module draws the synced `view`
// (public facts and the learner's own cards only) and sends intents with
// model.send({type: ..., rev: ...}); it never writes a synced trait.  Every
// word a learner reads about the game (messages, counts, rule texts, hints)
// comes from Python; this file only lays it out.  Card faces are HTML/CSS:
// nothing is fetched.
// Stable hooks for tests: .ct-table[data-rev], .ct-my-hand .ct-card[data-idx],
// .ct-btn[data-intent], .ct-message, .ct-meld[data-kind], .ct-pile, .ct-stock-count,
// .ct-rule-link[data-rule], .ct-rule-panel[data-rule], .ct-hint, .ct-log li[data-i]; a variant's table
// (the view has `positions`): .ct-table.ct-players-N[data-variant], .ct-seat-<position>[data-seat],
// .ct-melds[data-seats]; Samba: .ct-btn[data-intent="join"], .ct-meld[data-kind="m2"] .ct-meld-no,
// .ct-meld.ct-join-from (the set picked to join another), .ct-table[data-choose] (what a meld click does).

const RANK_NAMES = { "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
  "8": "eight", "9": "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const SUIT_GLYPHS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const COLOURS_2 = { S: "black", H: "red", D: "red", C: "black" };
const COLOURS_4 = { S: "black", H: "red", D: "blue", C: "green" };
const KEYS = { d: "draw", t: "take", m: "meld", a: "add", j: "join", x: "discard", p: "ask", o: "go_out",
  h: "hint", u: "undo", n: "new_hand" };
const PLAY_BUTTONS = new Set(["draw", "take", "meld", "add", "join", "discard", "go_out"]);
// Intents that change the game: while one is on its way, the buttons are disabled.
const BLOCKING = new Set(["draw", "take", "meld", "add", "join", "discard", "ask", "go_out", "hint", "undo",
  "new_hand", "yes", "no"]);
// The badge of a canasta, by the view's `canasta` (Samba's sequence of seven, Italian Canasta's deuces,
// Bolivia's escalera and bolivia).
const BADGES = {
  natural: "natural canasta", mixed: "mixed canasta", samba: "samba", deuces: "canasta of deuces",
  escalera: "escalera", bolivia: "bolivia",
};
// What a click on one of our melds does while the view asks for a meld (`choose_for`), for its label.
const MELD_CLICK = { add: "add the selected cards", take: "take the pack: the top card onto this meld",
  join: "join" };
const INFLIGHT_TIMEOUT_MS = 10000;
const RULE_RE = /\[?\b(R-[A-Z]+-\d+)\b\]?/g;

function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;",
    '"': "&quot;", "'": "&#39;" })[c]);
}

// Escape a text from Python and turn each rule number in it into a link that asks Python for the rule.
export function withRuleLinks(text) {
  return esc(text).replace(RULE_RE, (all, id) =>
    `<button type="button" class="ct-rule-link" data-rule="${id}" title="Show rule ${id}">${esc(all)}</button>`);
}

export function cardLabel(code) {
  if (code === "JK") return "joker";
  return `${RANK_NAMES[code[0]]} of ${SUIT_NAMES[code[1]]}`;
}

export function cardFace(code) {
  return code === "JK" ? "JKR" : (code[0] === "T" ? "10" : code[0]);
}

function cardInner(code) {
  if (code === "JK") {
    return '<span class="ct-rank" aria-hidden="true">JKR</span><span class="ct-suit" aria-hidden="true">\u2605</span>';
  }
  return `<span class="ct-rank" aria-hidden="true">${cardFace(code)}</span><span class="ct-suit" aria-hidden="true">${SUIT_GLYPHS[code[1]]}</span>`;
}

function cardClasses(code, four) {
  if (code === "JK") return "ct-card ct-joker ct-wild";
  const colour = (four ? COLOURS_4 : COLOURS_2)[code[1]];
  return `ct-card ct-${colour}${code[0] === "2" ? " ct-wild" : ""}${code[0] === "T" ? " ct-ten" : ""}`;
}

function card(code, four) {
  const label = cardLabel(code);
  return `<span class="${cardClasses(code, four)}" data-card="${esc(code)}" role="img" aria-label="${label}" title="${label}">${cardInner(code)}</span>`;
}

const BACK = '<span class="ct-card ct-back" aria-hidden="true"></span>';

function groupOf(code) {
  if (code === "JK" || code[0] === "2") return 2;
  if (code[0] === "3") return 0;
  return 1;
}

function countText(p) {
  if (p.count_text != null) return p.count_text;
  return `${p.count} ${p.count === 1 ? "card" : "cards"}`;
}

function handHTML(v, four, focusIdx) {
  const sel = new Set(v.selected);
  const hinted = new Set((v.hint && v.hint.cards) || []);
  const labels = v.labels || [];
  let out = "";
  let prev = null;
  v.hand.forEach((code, i) => {
    const g = groupOf(code);
    if (prev !== null && g !== prev) out += '<span class="ct-group-gap" aria-hidden="true"></span>';
    prev = g;
    const on = sel.has(i);
    const hint = hinted.has(i);
    const label = (labels[i] || cardLabel(code)) + (hint ? " (suggested by the hint)" : "");
    out += `<span class="${cardClasses(code, four)}${on ? " ct-selected" : ""}${hint ? " ct-hinted" : ""}" data-card="${esc(code)}" data-idx="${i}" role="button" tabindex="${i === focusIdx ? 0 : -1}" aria-pressed="${on}" aria-label="${esc(label)}" title="${esc(label)}">${cardInner(code)}</span>`;
  });
  return `<div class="ct-hand ct-my-hand" role="group" aria-label="Your hand: ${esc(countText({ count: v.hand.length }))}. Arrow keys move, Space selects.">${out || '<span class="ct-none">no cards</span>'}</div>`;
}

function seatHTML(pos, p, v, four, focusIdx) {
  const active = p.active ? " ct-active" : "";
  const dealer = p.dealer ? ' <span class="ct-dealer" title="dealer">D</span>' : "";
  const thinking = p.active && pos !== "bottom" && v.phase !== "hand_over" && v.phase !== "game_over" ? " ct-thinking" : "";
  const partner = p.partner ? ' <span class="ct-partner">partner</span>' : "";
  const head = `<div class="ct-seat-name${thinking}">${esc(p.name)} (${esc(p.seat)})${partner}${dealer} <span class="ct-count" data-count="${p.count}">${esc(countText(p))}</span></div>`;
  let body;
  if (pos === "bottom") body = handHTML(v, four, focusIdx);
  else body = `<div class="ct-backs" role="img" aria-label="${esc(p.name)}: ${esc(countText(p))}, face down">${BACK.repeat(Math.min(p.count, 15))}</div>`;
  return `<div class="ct-seat ct-seat-${pos}${active}" data-seat="${esc(p.seat)}">${head}${body}</div>`;
}

// `pick` (our side's melds only): {for: the view's choose_for, from: its join_from}.
function meldHTML(m, four, own, pick) {
  const n = m.cards.length;
  let cls = m.sequence ? "ct-meld ct-sequence" : "ct-meld";
  let badge = "";
  let cards;
  const no = m.number != null ? `m${m.number}` : "";
  let label = `${no ? `meld ${no}, ${m.sequence ? "sequence" : "set"} ` : "meld "}of ${m.name}: ${n} cards, ${m.n} natural, ${m.w} wild`;
  if (m.canasta) {
    const text = BADGES[m.canasta] || `${m.canasta} canasta`;
    cls += ` ct-canasta ct-canasta-${m.canasta}`;
    badge = `<span class="ct-badge ct-badge-${esc(m.canasta)}">${esc(text)}</span>`;
    cards = `<span class="ct-stack">${card(m.top, four)}</span>`;
    label += `, ${text}`;
  } else {
    cards = m.cards.map((c) => card(c, four)).join("");
    if (m.short) {
      cls += " ct-short";
      badge = '<span class="ct-badge ct-badge-short">one to go</span>';
      label += ", one card short of a canasta";
    }
  }
  const tag = no ? `<span class="ct-meld-no" aria-hidden="true">${esc(no)}</span>` : "";
  const inner = `<div class="ct-meld-cards">${cards}</div><div class="ct-meld-info">${tag}<span class="ct-count">${n}</span>${badge}</div>`;
  if (own) {
    const mode = (pick && pick.for) || "add";
    let action = MELD_CLICK[mode] || MELD_CLICK.add;
    let pressed = "";
    if (mode === "join") {
      const from = pick.from;
      action = from === m.kind ? `picked to join: click again to cancel` : (from ? `join ${from} into this set` : "join this set into another");
      pressed = ` aria-pressed="${from === m.kind}"`;
      if (from === m.kind) cls += " ct-join-from";
    }
    const title = mode === "add" ? "Add the selected cards to this meld" : action[0].toUpperCase() + action.slice(1);
    return `<button type="button" class="${cls}" data-kind="${esc(m.kind)}"${pressed} aria-label="${esc(label)}; ${esc(action)}" title="${esc(title)}">${inner}</button>`;
  }
  return `<div class="${cls}" data-kind="${esc(m.kind)}" role="img" aria-label="${esc(label)}">${inner}</div>`;
}

function meldsHTML(title, melds, red3, who, four, own, seats, pick) {
  const reds = red3.length ? `<div class="ct-red3" aria-label="red threes: ${red3.length}">${red3.map((c) => card(c, four)).join("")}</div>` : "";
  const body = melds.map((m) => meldHTML(m, four, own, pick)).join("") || '<span class="ct-none">no melds yet</span>';
  const named = seats ? ` data-seats="${esc(seats.join(""))}"` : "";
  return `<div class="ct-melds ct-melds-${who}" data-side="${who}"${named}>${reds}<div class="ct-melds-title">${esc(title)}</div><div class="ct-meld-row">${body}</div></div>`;
}

// The board of a variant's table (v.positions: every seat in turn order from the learner, who sits at
// the bottom): every other side's melds above the pile, the learner's side below.
function variantBoardHTML(v, four, focusIdx) {
  const titles = v.side_titles;
  let center = "";
  for (let i = 1; i < v.melds.length; i++) {
    center += meldsHTML(titles[i], v.melds[i], v.red3[i], "they", four, false, v.sides[i].seats);
  }
  center += `<div class="ct-middle">${pileHTML(v, four)}</div>`
    + meldsHTML(titles[0], v.melds[0], v.red3[0], "we", four, true, v.sides[0].seats, { for: v.choose_for, from: v.join_from });
  const seats = v.positions.slice(1).map((pos) => seatHTML(pos, v.players[pos], v, four, focusIdx)).join("");
  return seats + `<div class="ct-center">${center}</div>` + seatHTML("bottom", v.players.bottom, v, four, focusIdx);
}

function pileHTML(v, four) {
  const p = v.pile;
  const stock = `<div class="ct-stock" aria-label="stock: ${countText({ count: v.stock })}">${v.stock ? BACK : '<span class="ct-empty"></span>'}<div class="ct-caption">Stock <span class="ct-stock-count">${v.stock}</span></div></div>`;
  let inner = '<span class="ct-empty"></span>';
  if (p.top) {
    const freezer = p.freezer ? `<span class="ct-sideways" title="frozen by ${esc(cardLabel(p.freezer))}">${card(p.freezer, four)}</span>` : "";
    const tag = p.frozen_all ? '<span class="ct-frozen-tag">FROZEN</span>' : "";
    const top = p.top_sideways ? `<span class="ct-sideways-top">${card(p.top, four)}</span>` : card(p.top, four);
    // the cards face down under the turned card in Italian Canasta: a card back, never their faces
    const down = p.down ? `<span class="ct-pile-down" title="${countText({ count: p.down })} face down">${BACK}</span>` : "";
    inner = `${down}${freezer}<span class="ct-pile-top">${top}</span>${tag}`;
  }
  let note = p.note ?? "";
  if (p.note == null) {
    if (p.frozen_all) note = "frozen for everyone: take it only with a natural pair";
    else if (p.frozen_us) note = "frozen for us until our initial meld";
    if (p.blocked) note = "blocked: a wild card or a three is on top";
  }
  const label = `discard pile: ${countText({ count: p.size })}${p.frozen_all ? ", frozen" : ""}${p.top && p.freezer ? `, the ${cardLabel(p.freezer)} set crosswise` : ""}${p.down ? `, ${countText({ count: p.down })} face down` : ""}${p.top ? ", top card " + cardLabel(p.top) : ""}`;
  const crosswise = p.top && p.freezer ? " ct-crosswise" : "";
  return `${stock}<div class="ct-pile${p.frozen_all ? " ct-frozen" : ""}" aria-label="${esc(label)}"><div class="ct-pile-cards${crosswise}">${inner}</div><div class="ct-caption">Pile <span class="ct-pile-size">${p.size}</span></div>${note ? `<div class="ct-pile-note">${withRuleLinks(note)}</div>` : ""}</div>`;
}

function variantScoreHTML(v) {
  const s = v.score;
  const heads = v.side_titles.map((t) => `<th>${esc(t)}</th>`).join("");
  const rows = s.rows.map((r) => `<tr><th>Hand ${esc(r[0])}</th>${r.slice(1).map((x) => `<td>${esc(x)}</td>`).join("")}</tr>`).join("");
  const totals = v.sides.map((sd, i) => `<td class="${i === 0 ? "ct-we" : "ct-they"}">${esc(sd.total)}</td>`).join("");
  const mins = v.sides.map((sd) => `<td title="${sd.initial ? "made" : "still needed"}">${esc(sd.minimum)}${sd.initial ? " \u2713" : ""}</td>`).join("");
  const pending = s.pending ? `<div class="ct-pending">Melded toward your minimum: ${esc(s.pending)}</div>` : "";
  const turn = v.deal_label ? `${v.deal_label} \u00b7 ${v.turn_text}` : v.turn_text;
  // five-handed: who sits out this hand (the rule numbers come in the text, from Python)
  const out = v.sitting_out ? `<div class="ct-sitting-out" data-out="${esc(v.sitting_out.name)}">${withRuleLinks(v.sitting_out.text)}</div>` : "";
  return `<div class="ct-panel ct-score-panel"><h4>Score sheet</h4><table class="ct-score"><thead><tr><th></th>${heads}</tr></thead><tbody>${rows}<tr class="ct-total"><th>Total</th>${totals}</tr><tr><th>Initial meld</th>${mins}</tr></tbody></table>${out}<div class="ct-turn" aria-live="polite">${esc(turn)}</div>${pending}</div>`;
}

function scoreHTML(v) {
  if (v.sides) return variantScoreHTML(v);
  const s = v.score;
  const rows = s.rows.map((r) => `<tr><th>Hand ${esc(r[0])}</th><td>${esc(r[1])}</td><td>${esc(r[2])}</td></tr>`).join("");
  const pending = s.pending ? `<div class="ct-pending">Melded toward your minimum: ${esc(s.pending)}</div>` : "";
  const turn = v.deal_label ? `${v.deal_label} \u00b7 ${v.turn_text}` : v.turn_text;
  return `<div class="ct-panel ct-score-panel"><h4>Score sheet</h4><table class="ct-score"><thead><tr><th></th><th>We</th><th>They</th></tr></thead><tbody>${rows}<tr class="ct-total"><th>Total</th><td class="ct-we">${esc(s.we)}</td><td class="ct-they">${esc(s.they)}</td></tr><tr><th>Initial meld</th><td title="${s.initial_we ? "made" : "still needed"}">${esc(s.min_we)}${s.initial_we ? " \u2713" : ""}</td><td title="${s.initial_they ? "made" : "still needed"}">${esc(s.min_they)}${s.initial_they ? " \u2713" : ""}</td></tr></tbody></table><div class="ct-turn" aria-live="polite">${esc(turn)}</div>${pending}</div>`;
}

function resultHTML(v) {
  const r = v.result;
  if (!r) return "";
  const rows = [["natural_canastas", "Natural canastas"], ["mixed_canastas", "Mixed canastas"],
    ["red_threes", "Red threes"], ["going_out", "Going out"], ["concealed", "Concealed"],
    ["melded", "Cards melded"], ["in_hand", "Cards in hand"], ["total", "Hand total"]];
  const sides = r.sides || [r.we, r.they];
  const titles = r.sides ? v.side_titles : ["We", "They"];
  const body = rows.map(([k, l]) => `<tr${k === "total" ? ' class="ct-total"' : ""}><th>${l}</th>${sides.map((sd) => `<td>${esc(sd[k])}</td>`).join("")}</tr>`).join("");
  const head = r.headline ?? (r.game_over ? (r.winner === "we" ? "Game over: you win!" : "Game over: they win") :
    (r.went_out ? `${r.went_out} went out${r.concealed ? " concealed" : ""}` : "The stock ran out"));
  return `<div class="ct-panel ct-result-panel"><h4>${esc(head)}</h4><table class="ct-result"><thead><tr><th>This hand</th>${titles.map((t) => `<th>${esc(t)}</th>`).join("")}</tr></thead><tbody>${body}</tbody></table></div>`;
}

function altsTableHTML(h) {
  // New shape: table = [{action, verdict, value, best}], best move included.
  let rows = h.table;
  if (!rows && h.alternatives && h.alternatives.length) {
    rows = h.alternatives.map((a, i) => ({ action: a.text, verdict: a.why, value: a.value, best: i === 0 }));
  }
  if (!rows || !rows.length) return "";
  const body = rows.map((r) => `<tr class="${r.best ? "ct-best" : ""}"><td>${r.best ? '<span class="ct-best-mark" title="best">\u2605</span> ' : ""}${withRuleLinks(r.action)}</td><td>${withRuleLinks(r.verdict)}</td><td class="ct-num">${esc(r.value ?? "")}</td></tr>`).join("");
  // what the Value column is, from Python (the hint's own words): a caption under the table and the header's title
  const what = h.value_words ? `<caption class="ct-alts-what">Value: ${esc(h.value_words)}, averaged over sampled deals.</caption>` : "";
  return `<table class="ct-alts">${what}<thead><tr><th>Move</th><th>Verdict</th><th${h.value_words ? ` title="${esc(h.value_words)}"` : ""}>Value</th></tr></thead><tbody>${body}</tbody></table>`;
}

function planHTML(h) {
  const plan = h.plan || [];
  if (!plan.length) return "";
  const done = h.plan_done || 0;
  const items = plan.map((step, i) => `<li class="${i < done ? "ct-done" : (i === done ? "ct-next" : "")}">${withRuleLinks(step)}</li>`).join("");
  return `<div class="ct-plan" data-done="${done}" data-steps="${plan.length}"><div class="ct-plan-head">Plan</div><ol>${items}</ol></div>`;
}

function hintHTML(v, pending) {
  const h = v.hint;
  if (!h && !pending) return "";
  const busy = pending || (h && h.busy);
  const spinner = busy ? '<span class="ct-spinner" role="progressbar" aria-label="searching for a hint"></span>' : "";
  if (!h) return `<div class="ct-panel ct-hint ct-busy" aria-busy="true"><h4>Hint ${spinner}</h4></div>`;
  const stages = (h.texts || []).map((t) => `<p class="ct-hint-stage">${withRuleLinks(t)}</p>`).join("");
  const pr = h.principles && h.principles.length ? `<ul class="ct-principles">${h.principles.map((p) => `<li>${withRuleLinks(p)}</li>`).join("")}</ul>` : "";
  const count = h.count ? ` ${h.stage + 1}/${h.count}` : "";
  return `<div class="ct-panel ct-hint${busy ? " ct-busy" : ""}" aria-live="polite" aria-busy="${!!busy}" data-stage="${h.stage ?? 0}"><h4>Hint${count} ${spinner}</h4>${planHTML(h)}${stages}${altsTableHTML(h)}${pr}</div>`;
}

function coachHTML(v) {
  const c = v.coach;
  if (!c || (!c.on && !c.last)) return "";
  const l = c.last;
  // The grade's own sentence says everything (the hint's move it was measured against, the points lost and
  // what they are); "best" is only ever the hint's own move, so no second "Best:" line can contradict it.
  const lost = l && l.grade !== "best" && l.loss != null && l.loss !== "" ? ` <span class="ct-loss">(${esc(l.loss)} points lost)</span>` : "";
  const body = l ? `<div class="ct-coach-last ct-grade-${esc(String(l.grade).toLowerCase().replace(/[^a-z]+/g, "-"))}"><div><b>${withRuleLinks(l.action)}</b>: <span class="ct-grade">${esc(l.grade)}</span>${lost}</div>${l.text ? `<div class="ct-coach-text">${withRuleLinks(l.text)}</div>` : ""}</div>`
    : '<div class="ct-none">Your next move will be graded.</div>';
  return `<div class="ct-panel ct-coach"><h4>Coach</h4>${body}</div>`;
}

function logHTML(v) {
  const log = v.log || [];
  if (!log.length) return "";
  const items = log.map((e, n) => {
    if (typeof e === "string") return `<li data-i="${n}">${withRuleLinks(e)}</li>`;
    const why = e.why ? `<div class="ct-why">${withRuleLinks(e.why)}</div>` : "";
    return `<li data-i="${esc(e.i ?? n)}" data-kind="${esc(e.kind ?? "")}" data-seat="${esc(e.seat ?? "")}" data-who="${esc(e.who ?? "")}">${withRuleLinks(e.text)}${why}</li>`;
  }).join("");
  return `<div class="ct-panel ct-log-panel"><h4>Table talk</h4><ol class="ct-log" data-scroll="log" tabindex="0" aria-label="table talk: every move of this hand">${items}</ol></div>`;
}

function ruleHTML(v, hidden) {
  const r = v.rule;
  if (!r || hidden === r.id) return "";
  return `<div class="ct-rule-panel" data-rule="${esc(r.id)}" role="dialog" aria-label="rule ${esc(r.id)}"><div class="ct-rule-head"><b>${esc(r.id)}</b> ${esc(r.title || "")}<button type="button" class="ct-rule-close" aria-label="close the rule">\u00d7</button></div><div class="ct-rule-text" data-scroll="rule">${withRuleLinks(r.text || "")}</div></div>`;
}

function messageHTML(v) {
  return `<div class="ct-message ct-msg-${esc(v.message_kind)}" role="status" aria-live="polite">${withRuleLinks(v.message || "")}</div>`;
}

function buttonsHTML(v, four) {
  let out = "";
  const b = v.buttons;
  const order = v.answer_needed ? ["yes", "no"] : [];
  for (const id of order.concat(["draw", "take", "meld", "add", "join", "discard", "ask", "go_out", "hint", "undo", "new_hand"])) {
    const s = b[id];
    if (!s) continue;
    const busy = id === "hint" && v.hint && v.hint.busy;
    const cls = `ct-btn${s.ok && PLAY_BUTTONS.has(id) ? " ct-ok" : ""}${id === "yes" || id === "no" ? " ct-answer" : ""}${busy ? " ct-busy" : ""}`;
    out += `<button type="button" class="${cls}" data-intent="${id}" aria-disabled="${!s.ok}" title="${esc(s.title)}">${esc(s.label)}</button>`;
  }
  const coach = v.coach ? `<label><input type="checkbox" class="ct-coach-toggle"${v.coach.on ? " checked" : ""}> coach</label>` : "";
  out += `<span class="ct-toggles">${coach}<label><input type="checkbox" class="ct-four-toggle"${four ? " checked" : ""}> four-colour deck</label></span>`;
  return `<div class="ct-controls" role="toolbar" aria-label="actions">${out}</div><div class="ct-why-line" aria-live="polite"></div>`;
}

function render({ model, el }) {
  let focusIdx = 0;
  let inflight = null; // {rev, intent, timer} while a blocking intent is on its way
  let hiddenRule = null; // the rule panel the learner closed
  const root = document.createElement("div");
  root.className = "ct-root";
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  el.appendChild(root);

  function send(type, extra = {}) {
    const v = model.get("view") || {};
    if (BLOCKING.has(type)) {
      if (inflight) return false;
      inflight = { rev: v.rev, intent: type, timer: setTimeout(() => { inflight = null; markInflight(); }, INFLIGHT_TIMEOUT_MS) };
      markInflight();
    }
    // `type` is the intent; `intent` repeats it for the older shell; `rev` is the view we last drew.
    model.send({ type, intent: type, rev: v.rev ?? null, ...extra });
    return true;
  }

  function markInflight() {
    const on = !!inflight;
    root.classList.toggle("ct-inflight", on);
    root.querySelectorAll(".ct-btn, button.ct-meld").forEach((b) => { b.disabled = on; });
    const t = root.querySelector(".ct-table");
    if (t) t.setAttribute("aria-busy", String(on));
    if (on && inflight.intent === "hint" && !root.querySelector(".ct-hint")) {
      const side = root.querySelector(".ct-side");
      if (side) side.insertAdjacentHTML("afterbegin", hintHTML(model.get("view") || {}, true));
    }
  }

  function draw() {
    const v = model.get("view") || {};
    if (!v.players) { root.textContent = "Loading the table\u2026"; return; }
    if (inflight && v.rev !== inflight.rev) { clearTimeout(inflight.timer); inflight = null; }
    const four = model.get("four_colour");
    const active = document.activeElement;
    const focusKey = active && root.contains(active) ? active.getAttribute("data-focus") : null;
    const scroll = {};
    const logEl = root.querySelector('[data-scroll="log"]');
    const logAtEnd = !logEl || logEl.scrollTop + logEl.clientHeight >= logEl.scrollHeight - 4;
    root.querySelectorAll("[data-scroll]").forEach((e) => { scroll[e.dataset.scroll] = e.scrollTop; });
    const sideScroll = root.querySelector(".ct-side") ? root.querySelector(".ct-side").scrollTop : 0;
    if (focusIdx >= v.hand.length) focusIdx = Math.max(0, v.hand.length - 1);
    if (v.rule && hiddenRule && hiddenRule !== v.rule.id) hiddenRule = null;
    const p = v.players;
    const titles = v.side_titles || (v.seat === "N" || v.seat === "S" ? ["We (N\u2013S)", "They (E\u2013W)"] : ["We (E\u2013W)", "They (N\u2013S)"]);
    const center = meldsHTML(titles[1], v.melds[1], v.red3[1], "they", four, false)
      + `<div class="ct-middle">${pileHTML(v, four)}</div>`
      + meldsHTML(titles[0], v.melds[0], v.red3[0], "we", four, true);
    const board = v.positions ? variantBoardHTML(v, four, focusIdx)
      : seatHTML("top", p.top, v, four, focusIdx) + seatHTML("left", p.left, v, four, focusIdx)
      + `<div class="ct-center">${center}</div>` + seatHTML("right", p.right, v, four, focusIdx)
      + seatHTML("bottom", p.bottom, v, four, focusIdx);
    const players = v.positions ? ` ct-players-${v.positions.length}` : "";
    const variant = v.positions ? ` data-variant="${esc(v.variant)}"` : "";
    const side = ruleHTML(v, hiddenRule) + hintHTML(v, false) + coachHTML(v) + resultHTML(v) + scoreHTML(v) + logHTML(v);
    root.innerHTML = `<div class="ct-table${four ? " ct-four" : ""}${v.choose_meld ? " ct-choose" : ""}${players}"${variant}${v.choose_for ? ` data-choose="${esc(v.choose_for)}"` : ""} data-rev="${esc(v.rev)}" data-phase="${esc(v.phase)}" data-actor="${esc(v.actor ?? "")}" role="region" aria-label="Canasta table">`
      + `<div class="ct-board">${board}</div><div class="ct-play">${messageHTML(v)}${buttonsHTML(v, four)}</div><div class="ct-side">${side}</div>`
      + '<div class="ct-keys">Keys: \u2190 \u2192 move between cards, Space or Enter selects, Esc clears; D draw, T take pack, M meld, A add, X discard, '
      + (v.buttons.join ? "J join sets, " : "") + (v.buttons.ask ? "P ask partner, " : "") + 'O go out, H hint, U undo, N new hand.</div></div>';
    root.querySelectorAll(".ct-btn").forEach((b) => b.setAttribute("data-focus", "btn-" + b.dataset.intent));
    root.querySelectorAll("button.ct-meld").forEach((b) => b.setAttribute("data-focus", "meld-" + b.dataset.kind));
    root.querySelectorAll(".ct-my-hand .ct-card").forEach((c) => c.setAttribute("data-focus", "card"));
    root.querySelectorAll("[data-scroll]").forEach((e) => { if (scroll[e.dataset.scroll] != null) e.scrollTop = scroll[e.dataset.scroll]; });
    const newLog = root.querySelector('[data-scroll="log"]');
    if (newLog && logAtEnd) newLog.scrollTop = newLog.scrollHeight;
    const newSide = root.querySelector(".ct-side");
    if (newSide) newSide.scrollTop = sideScroll;
    markInflight();
    if (focusKey) {
      const target = focusKey === "card" ? root.querySelector(`.ct-my-hand .ct-card[data-idx="${focusIdx}"]`)
        : root.querySelector(`[data-focus="${focusKey}"]`);
      if (target) target.focus({ preventScroll: true });
    }
  }

  function toggle(i) {
    if (inflight) return; // the hand is about to change
    const c = root.querySelector(`.ct-my-hand .ct-card[data-idx="${i}"]`);
    if (c) { // answer at once; Python's view confirms
      const on = !c.classList.contains("ct-selected");
      c.classList.toggle("ct-selected", on);
      c.setAttribute("aria-pressed", String(on));
    }
    focusIdx = i;
    send("toggle", { index: i });
  }

  function moveFocus(delta, absolute) {
    const v = model.get("view");
    if (!v || !v.hand.length) return;
    focusIdx = absolute != null ? absolute : Math.min(v.hand.length - 1, Math.max(0, focusIdx + delta));
    root.querySelectorAll(".ct-my-hand .ct-card").forEach((c) => c.setAttribute("tabindex", c.dataset.idx == focusIdx ? "0" : "-1"));
    const c = root.querySelector(`.ct-my-hand .ct-card[data-idx="${focusIdx}"]`);
    if (c) c.focus();
  }

  // A click on one of our melds: add the selection, or (Samba, when the view asks) take the pack onto it
  // or pick it in a join.
  function meldClick(kind) {
    const v = model.get("view") || {};
    if (v.choose_for === "join") send("join", { meld: kind });
    else if (v.choose_for === "take") send("take", { to: kind });
    else send("add", { to: kind });
  }

  function showWhy(btn) {
    const line = root.querySelector(".ct-why-line");
    if (!line) return;
    const title = btn.getAttribute("title") || "";
    line.innerHTML = title ? `<span class="ct-why-label">${esc(btn.textContent)}:</span> ${withRuleLinks(title)}` : "";
  }

  function onClick(ev) {
    const rule = ev.target.closest(".ct-rule-link");
    if (rule) { hiddenRule = null; send("rule", { id: rule.dataset.rule }); ev.stopPropagation(); return; }
    if (ev.target.closest(".ct-rule-close")) {
      const panel = root.querySelector(".ct-rule-panel");
      hiddenRule = panel ? panel.dataset.rule : null;
      if (panel) panel.remove();
      return;
    }
    const cardEl = ev.target.closest(".ct-my-hand .ct-card");
    if (cardEl) { toggle(Number(cardEl.dataset.idx)); return; }
    const btn = ev.target.closest(".ct-btn");
    if (btn) { if (!btn.disabled) send(btn.dataset.intent); return; }
    const meld = ev.target.closest("button.ct-meld");
    if (meld) { if (!meld.disabled) meldClick(meld.dataset.kind); return; }
  }

  function onOver(ev) {
    const btn = ev.target.closest && ev.target.closest(".ct-btn");
    if (btn) showWhy(btn);
  }

  function onChange(ev) {
    if (ev.target.classList.contains("ct-four-toggle")) send("four_colour", { on: ev.target.checked });
    if (ev.target.classList.contains("ct-coach-toggle")) send("coach", { on: ev.target.checked });
  }

  function onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA")) return;
    const cardEl = t.closest && t.closest(".ct-my-hand .ct-card");
    let handled = true;
    if (cardEl && (ev.key === " " || ev.key === "Enter")) toggle(Number(cardEl.dataset.idx));
    else if (cardEl && ev.key === "ArrowRight") moveFocus(1);
    else if (cardEl && ev.key === "ArrowLeft") moveFocus(-1);
    else if (cardEl && ev.key === "Home") moveFocus(0, 0);
    else if (cardEl && ev.key === "End") moveFocus(0, (model.get("view").hand.length || 1) - 1);
    else if (ev.key === "Escape") send("clear");
    else if (KEYS[ev.key.toLowerCase()] && ev.key.length === 1) send(KEYS[ev.key.toLowerCase()]);
    else handled = false; // Space/Enter on a button: native activation
    if (handled) { ev.preventDefault(); ev.stopPropagation(); }
    else if (ev.key.length === 1 || ev.key.startsWith("Arrow")) ev.stopPropagation(); // keep notebook shortcuts out
  }

  function onFocus(ev) {
    const btn = ev.target.closest && ev.target.closest(".ct-btn");
    if (btn) showWhy(btn);
  }

  root.addEventListener("click", onClick);
  root.addEventListener("mouseover", onOver);
  root.addEventListener("focusin", onFocus);
  root.addEventListener("change", onChange);
  root.addEventListener("keydown", onKey);
  model.on("change:view", draw);
  model.on("change:four_colour", draw);
  draw();
  return () => {
    if (inflight) clearTimeout(inflight.timer);
    model.off("change:view", draw);
    model.off("change:four_colour", draw);
    root.removeEventListener("click", onClick);
    root.removeEventListener("mouseover", onOver);
    root.removeEventListener("focusin", onFocus);
    root.removeEventListener("change", onChange);
    root.removeEventListener("keydown", onKey);
  };
}

export default { render };
