// canasta-tutor card table: the browser side of canasta_tutor.widget.CanastaTable.
//
// Python is the single source of truth.  This module draws the synced `view`
// (public facts and the learner's own cards only) and sends intents with
// model.send({intent: ...}).  Card faces are HTML/CSS: nothing is fetched.
// Stable hooks for tests: .ct-table[data-rev], .ct-my-hand .ct-card[data-idx],
// .ct-btn[data-intent], .ct-message, .ct-meld[data-kind], .ct-pile, .ct-stock-count.

const RANK_NAMES = { "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
  "8": "eight", "9": "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const SUIT_GLYPHS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const COLOURS_2 = { S: "black", H: "red", D: "red", C: "black" };
const COLOURS_4 = { S: "black", H: "red", D: "blue", C: "green" };
const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
const KEYS = { d: "draw", t: "take", m: "meld", a: "add", x: "discard", p: "ask", o: "go_out",
  h: "hint", u: "undo", n: "new_hand" };
const PLAY_BUTTONS = new Set(["draw", "take", "meld", "add", "discard", "go_out"]);

function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;",
    '"': "&quot;", "'": "&#39;" })[c]);
}

export function cardLabel(code) {
  if (code === "JK") return "joker";
  return `${RANK_NAMES[code[0]]} of ${SUIT_NAMES[code[1]]}`;
}

function cardInner(code) {
  if (code === "JK") {
    return '<span class="ct-rank" aria-hidden="true">JKR</span><span class="ct-suit" aria-hidden="true">\u2605</span>';
  }
  const face = code[0] === "T" ? "10" : code[0];
  return `<span class="ct-rank" aria-hidden="true">${face}</span><span class="ct-suit" aria-hidden="true">${SUIT_GLYPHS[code[1]]}</span>`;
}

function cardClasses(code, four) {
  if (code === "JK") return "ct-card ct-joker ct-wild";
  const colour = (four ? COLOURS_4 : COLOURS_2)[code[1]];
  return `ct-card ct-${colour}${code[0] === "2" ? " ct-wild" : ""}`;
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

function handHTML(v, four, focusIdx) {
  const sel = new Set(v.selected);
  let out = "";
  let prev = null;
  v.hand.forEach((code, i) => {
    const g = groupOf(code);
    if (prev !== null && g !== prev) out += '<span class="ct-group-gap" aria-hidden="true"></span>';
    prev = g;
    const on = sel.has(i);
    out += `<span class="${cardClasses(code, four)}${on ? " ct-selected" : ""}" data-card="${esc(code)}" data-idx="${i}" role="button" tabindex="${i === focusIdx ? 0 : -1}" aria-pressed="${on}" aria-label="${esc(v.labels[i] || cardLabel(code))}" title="${esc(v.labels[i] || cardLabel(code))}">${cardInner(code)}</span>`;
  });
  return `<div class="ct-hand ct-my-hand" role="group" aria-label="Your hand: ${v.hand.length} cards. Arrow keys move, Space selects.">${out || '<span class="ct-none">no cards</span>'}</div>`;
}

function seatHTML(pos, p, v, four, focusIdx) {
  const active = p.active ? " ct-active" : "";
  const dealer = p.dealer ? ' <span class="ct-dealer" title="dealer">D</span>' : "";
  const thinking = p.active && pos !== "bottom" && v.phase !== "hand_over" ? " ct-thinking" : "";
  const head = `<div class="ct-seat-name${thinking}">${esc(p.name)} (${p.seat})${dealer} <span class="ct-count" data-count="${p.count}">${p.count} cards</span></div>`;
  let body;
  if (pos === "bottom") body = handHTML(v, four, focusIdx);
  else body = `<div class="ct-backs" role="img" aria-label="${esc(p.name)}: ${p.count} cards, face down">${BACK.repeat(Math.min(p.count, 15))}</div>`;
  return `<div class="ct-seat ct-seat-${pos}${active}" data-seat="${p.seat}">${head}${body}</div>`;
}

function meldHTML(m, four, own) {
  const n = m.cards.length;
  let cls = "ct-meld";
  let badge = "";
  let cards;
  let label = `meld of ${m.name}: ${n} cards, ${m.n} natural, ${m.w} wild`;
  if (m.canasta) {
    cls += ` ct-canasta ct-canasta-${m.canasta}`;
    badge = `<span class="ct-badge ct-badge-${m.canasta}">${m.canasta} canasta</span>`;
    cards = `<span class="ct-stack">${card(m.top, four)}</span>`;
    label += `, ${m.canasta} canasta`;
  } else {
    cards = m.cards.map((c) => card(c, four)).join("");
    if (m.short) {
      cls += " ct-short";
      badge = '<span class="ct-badge ct-badge-short">one to go</span>';
      label += ", one card short of a canasta";
    }
  }
  const inner = `<div class="ct-meld-cards">${cards}</div><div class="ct-meld-info"><span class="ct-count">${n}</span>${badge}</div>`;
  if (own) {
    return `<button type="button" class="${cls}" data-kind="${esc(m.kind)}" aria-label="${esc(label)}; add the selected cards" title="Add the selected cards to this meld">${inner}</button>`;
  }
  return `<div class="${cls}" data-kind="${esc(m.kind)}" role="img" aria-label="${esc(label)}">${inner}</div>`;
}

function meldsHTML(title, melds, red3, who, four, own) {
  const reds = red3.length ? `<div class="ct-red3" aria-label="red threes: ${red3.length}">${red3.map((c) => card(c, four)).join("")}</div>` : "";
  const body = melds.map((m) => meldHTML(m, four, own)).join("") || '<span class="ct-none">no melds yet</span>';
  return `<div class="ct-melds ct-melds-${who}" data-side="${who}">${reds}<div class="ct-melds-title">${esc(title)}</div><div class="ct-meld-row">${body}</div></div>`;
}

function pileHTML(v, four) {
  const p = v.pile;
  const stock = `<div class="ct-stock" aria-label="stock: ${v.stock} cards">${v.stock ? BACK : '<span class="ct-empty"></span>'}<div class="ct-caption">Stock <span class="ct-stock-count">${v.stock}</span></div></div>`;
  let inner = '<span class="ct-empty"></span>';
  if (p.top) {
    const freezer = p.freezer ? `<span class="ct-sideways" title="frozen by ${esc(cardLabel(p.freezer))}">${card(p.freezer, four)}</span>` : "";
    const tag = p.frozen_all ? '<span class="ct-frozen-tag">FROZEN</span>' : "";
    const top = p.top_sideways ? `<span class="ct-sideways-top">${card(p.top, four)}</span>` : card(p.top, four);
    inner = `${freezer}<span class="ct-pile-top">${top}</span>${tag}`;
  }
  let note = "";
  if (p.frozen_all) note = "frozen for everyone: take it only with a natural pair";
  else if (p.frozen_us) note = "frozen for us until our initial meld";
  if (p.blocked) note = "blocked: a wild card or a three is on top";
  const label = `discard pile: ${p.size} cards${p.frozen_all ? ", frozen" : ""}${p.top ? ", top card " + cardLabel(p.top) : ""}`;
  return `${stock}<div class="ct-pile${p.frozen_all ? " ct-frozen" : ""}" aria-label="${esc(label)}"><div class="ct-pile-cards">${inner}</div><div class="ct-caption">Pile <span class="ct-pile-size">${p.size}</span></div>${note ? `<div class="ct-pile-note">${esc(note)}</div>` : ""}</div>`;
}

function scoreHTML(v) {
  const s = v.score;
  const rows = s.rows.map((r) => `<tr><th>Hand ${r[0]}</th><td>${r[1]}</td><td>${r[2]}</td></tr>`).join("");
  const pending = s.pending ? `<div class="ct-pending">Melded toward your minimum: ${s.pending}</div>` : "";
  return `<div class="ct-panel ct-score-panel"><h4>Score sheet</h4><table class="ct-score"><thead><tr><th></th><th>We</th><th>They</th></tr></thead><tbody>${rows}<tr class="ct-total"><th>Total</th><td class="ct-we">${s.we}</td><td class="ct-they">${s.they}</td></tr><tr><th>Initial meld</th><td title="${s.initial_we ? "made" : "still needed"}">${s.min_we}${s.initial_we ? " \u2713" : ""}</td><td title="${s.initial_they ? "made" : "still needed"}">${s.min_they}${s.initial_they ? " \u2713" : ""}</td></tr></tbody></table><div class="ct-turn" aria-live="polite">Deal ${v.deal + 1} \u00b7 ${esc(v.turn_text)}</div>${pending}</div>`;
}

function resultHTML(v) {
  const r = v.result;
  if (!r) return "";
  const rows = [["natural_canastas", "Natural canastas"], ["mixed_canastas", "Mixed canastas"],
    ["red_threes", "Red threes"], ["going_out", "Going out"], ["concealed", "Concealed"],
    ["melded", "Cards melded"], ["in_hand", "Cards in hand"], ["total", "Hand total"]];
  const body = rows.map(([k, l]) => `<tr${k === "total" ? ' class="ct-total"' : ""}><th>${l}</th><td>${r.we[k]}</td><td>${r.they[k]}</td></tr>`).join("");
  const head = r.game_over ? (r.winner === "we" ? "Game over: you win!" : "Game over: they win") :
    (r.went_out ? `${esc(r.went_out)} went out${r.concealed ? " concealed" : ""}` : "The stock ran out");
  return `<div class="ct-panel ct-result-panel"><h4>${head}</h4><table class="ct-result"><thead><tr><th>This hand</th><th>We</th><th>They</th></tr></thead><tbody>${body}</tbody></table></div>`;
}

function hintHTML(v) {
  const h = v.hint;
  if (!h) return "";
  const stages = h.texts.map((t) => `<p class="ct-hint-stage">${esc(t)}</p>`).join("");
  const alts = h.alternatives.length ? `<table class="ct-alts"><tbody>${h.alternatives.map((a) => `<tr><td>${esc(a.text)}</td><td>${a.value ?? ""}${a.stderr != null ? " \u00b1" + a.stderr : ""}</td><td>${esc(a.why)}</td></tr>`).join("")}</tbody></table>` : "";
  const pr = h.principles.length ? `<ul>${h.principles.map((p) => `<li>${esc(p)}</li>`).join("")}</ul>` : "";
  return `<div class="ct-panel ct-hint" aria-live="polite"><h4>Hint ${h.stage + 1}/${h.count}</h4>${stages}${alts}${pr}</div>`;
}

function messageHTML(v) {
  const text = esc(v.message || "").replace(/\[(R-[A-Z0-9-]+)\]/g, '<span class="ct-rule">[$1]</span>');
  return `<div class="ct-message ct-msg-${esc(v.message_kind)}" role="status" aria-live="polite">${text}</div>`;
}

function buttonsHTML(v, four) {
  let out = "";
  const b = v.buttons;
  const order = v.answer_needed ? ["yes", "no"] : [];
  for (const id of order.concat(["draw", "take", "meld", "add", "discard", "ask", "go_out", "hint", "undo", "new_hand"])) {
    const s = b[id];
    if (!s) continue;
    const cls = `ct-btn${s.ok && PLAY_BUTTONS.has(id) ? " ct-ok" : ""}${id === "yes" || id === "no" ? " ct-answer" : ""}`;
    out += `<button type="button" class="${cls}" data-intent="${id}" aria-disabled="${!s.ok}" title="${esc(s.title)}">${esc(s.label)}</button>`;
  }
  out += `<span class="ct-toggles"><label><input type="checkbox" class="ct-four-toggle"${four ? " checked" : ""}> four-colour deck</label></span>`;
  return `<div class="ct-controls" role="toolbar" aria-label="actions">${out}</div>`;
}

function render({ model, el }) {
  let focusIdx = 0;
  const root = document.createElement("div");
  root.className = "ct-root";
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  el.appendChild(root);

  const send = (msg) => model.send(msg);

  function draw() {
    const v = model.get("view") || {};
    if (!v.players) { root.textContent = "Loading the table…"; return; }
    const four = model.get("four_colour");
    const active = document.activeElement;
    const focusKey = active && root.contains(active) ? active.getAttribute("data-focus") : null;
    if (focusIdx >= v.hand.length) focusIdx = Math.max(0, v.hand.length - 1);
    const p = v.players;
    const center = meldsHTML(v.seat === "N" || v.seat === "S" ? "They (E–W)" : "They (N–S)", v.melds[1], v.red3[1], "they", four, false)
      + `<div class="ct-middle">${pileHTML(v, four)}</div>`
      + meldsHTML(v.seat === "N" || v.seat === "S" ? "We (N–S)" : "We (E–W)", v.melds[0], v.red3[0], "we", four, true);
    const board = seatHTML("top", p.top, v, four, focusIdx) + seatHTML("left", p.left, v, four, focusIdx)
      + `<div class="ct-center">${center}</div>` + seatHTML("right", p.right, v, four, focusIdx)
      + seatHTML("bottom", p.bottom, v, four, focusIdx);
    const log = v.log.length ? `<div class="ct-panel"><h4>Table talk</h4><ol class="ct-log">${v.log.map((l) => `<li>${esc(typeof l === "string" ? l : l.text)}</li>`).join("")}</ol></div>` : "";
    const side = scoreHTML(v) + resultHTML(v) + hintHTML(v) + log;
    root.innerHTML = `<div class="ct-table${four ? " ct-four" : ""}${v.choose_meld ? " ct-choose" : ""}" data-rev="${v.rev}" data-phase="${esc(v.phase)}" data-actor="${esc(v.actor ?? "")}" role="region" aria-label="Canasta table">`
      + `<div class="ct-board">${board}</div><div class="ct-side">${side}</div>${messageHTML(v)}${buttonsHTML(v, four)}`
      + '<div class="ct-keys">Keys: \u2190 \u2192 move between cards, Space or Enter selects, Esc clears; D draw, T take pack, M meld, A add, X discard, P ask partner, O go out, H hint, U undo, N new hand.</div></div>';
    root.querySelectorAll(".ct-btn").forEach((b) => b.setAttribute("data-focus", "btn-" + b.dataset.intent));
    root.querySelectorAll("button.ct-meld").forEach((b) => b.setAttribute("data-focus", "meld-" + b.dataset.kind));
    root.querySelectorAll(".ct-my-hand .ct-card").forEach((c) => c.setAttribute("data-focus", "card"));
    if (focusKey) {
      const target = focusKey === "card" ? root.querySelector(`.ct-my-hand .ct-card[data-idx="${focusIdx}"]`)
        : root.querySelector(`[data-focus="${focusKey}"]`);
      if (target) target.focus({ preventScroll: true });
    }
  }

  function toggle(i) {
    const c = root.querySelector(`.ct-my-hand .ct-card[data-idx="${i}"]`);
    if (c) { // answer at once; Python's view confirms
      const on = !c.classList.contains("ct-selected");
      c.classList.toggle("ct-selected", on);
      c.setAttribute("aria-pressed", String(on));
    }
    focusIdx = i;
    send({ intent: "toggle", index: i });
  }

  function moveFocus(delta, absolute) {
    const v = model.get("view");
    if (!v || !v.hand.length) return;
    focusIdx = absolute != null ? absolute : Math.min(v.hand.length - 1, Math.max(0, focusIdx + delta));
    root.querySelectorAll(".ct-my-hand .ct-card").forEach((c) => c.setAttribute("tabindex", c.dataset.idx == focusIdx ? "0" : "-1"));
    const c = root.querySelector(`.ct-my-hand .ct-card[data-idx="${focusIdx}"]`);
    if (c) c.focus();
  }

  function onClick(ev) {
    const cardEl = ev.target.closest(".ct-my-hand .ct-card");
    if (cardEl) { toggle(Number(cardEl.dataset.idx)); return; }
    const btn = ev.target.closest(".ct-btn");
    if (btn) { send({ intent: btn.dataset.intent }); return; }
    const meld = ev.target.closest("button.ct-meld");
    if (meld) { send({ intent: "add", to: meld.dataset.kind }); return; }
  }

  function onChange(ev) {
    if (ev.target.classList.contains("ct-four-toggle")) send({ intent: "four_colour", on: ev.target.checked });
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
    else if (ev.key === "Escape") send({ intent: "clear" });
    else if (KEYS[ev.key.toLowerCase()] && ev.key.length === 1) send({ intent: KEYS[ev.key.toLowerCase()] });
    else if (ev.key === " " || ev.key === "Enter") handled = false; // native button activation
    else handled = false;
    if (handled) { ev.preventDefault(); ev.stopPropagation(); }
    else if (ev.key.length === 1 || ev.key.startsWith("Arrow")) ev.stopPropagation(); // keep notebook shortcuts out
  }

  root.addEventListener("click", onClick);
  root.addEventListener("change", onChange);
  root.addEventListener("keydown", onKey);
  model.on("change:view", draw);
  model.on("change:four_colour", draw);
  draw();
  return () => {
    model.off("change:view", draw);
    model.off("change:four_colour", draw);
    root.removeEventListener("click", onClick);
    root.removeEventListener("change", onChange);
    root.removeEventListener("keydown", onKey);
  };
}

export default { render };
