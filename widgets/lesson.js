// canasta-tutor lesson widget: the browser side of canasta_tutor.lesson_widget.LessonWidget.
//
// Python is the single source of truth.  This module draws the synced `view` and
// sends intents with model.send({intent: ...}).  Every text in the view arrives
// as safe HTML from Python (lesson Markdown is escaped there before rendering).
// The learner clicks cards in their hand (and, for "add", one of their melds), then a
// button; the session layer's planner (Python) turns that into actions.  Typing the action works too.
// Stable hooks for tests: .cl-root[data-status][data-level], .cl-input,
// button[data-intent][data-button], .ct-seat-bottom .ct-card[aria-pressed],
// .cl-feedback li, .cl-stars[data-stars], .cl-hints.
// An assignment item (the view has `exam`, plain text escaped here): one level, no stars; the hint button says
// its cost and is off when no new hint is left; Try again and Give up; the answer once the item is closed
// (.cl-exam[data-closed]).

function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;",
    '"': "&quot;", "'": "&#39;" })[c]);
}

function stars(n, label) {
  let out = "";
  for (let i = 0; i < 3; i++) out += i < n ? "★" : '<span class="cl-off">★</span>';
  return `<span class="cl-stars" data-stars="${n}" aria-label="${esc(label)}">${out}</span>`;
}

function levelsHTML(v) {
  return '<ul class="cl-levels" aria-label="Levels">' + v.levels.map((lv, i) =>
    `<li><button data-intent="goto" data-index="${i}" aria-current="${i === v.index}" ` +
    `title="${lv.title}">${i + 1} ${lv.stars ? "★".repeat(lv.stars) : "·"}</button></li>`).join("") + "</ul>";
}

function feedbackHTML(v) {
  if (!v.feedback.length) return "";
  return '<ul class="cl-feedback" aria-live="polite">' + v.feedback.map((f) => {
    const cls = f.status === "passed" ? "cl-passed" : f.status === "failed" ? "cl-failed"
      : !f.accepted ? "cl-refused" : f.wrong ? "cl-wrong" : "";
    const replies = f.replies.length ? `<div class="cl-replies">${f.replies.join("; ")}</div>` : "";
    return `<li class="${cls}"><strong>${f.action}</strong>${f.lines.join("")}${replies}</li>`;
  }).join("") + "</ul>";
}

function examHTML(x) {
  const answer = x.closed && x.answer ? `<div class="cl-answer">Answer: <b>${esc(x.answer)}</b>${x.why ? `<div>${esc(x.why)}</div>` : ""}</div>` : "";
  const result = x.result ? `<div class="cl-result" role="status">${esc(x.result)}</div>` : "";
  const warning = x.warning ? `<div class="cl-warning" role="alert">${esc(x.warning)}</div>` : "";
  return `<div class="cl-exam" data-closed="${esc(x.closed)}">${answer}${result}${warning}</div>`;
}

function render(el, model) {
  const v = model.get("view");
  if (!v || !v.level) return;
  const x = v.exam || null;
  const open = v.status === "open" && !(x && x.closed);
  const statusText = x && x.closed === "solved" ? "Solved" : x && x.closed ? "Given up"
    : v.status === "passed" ? "Passed" : v.status === "failed" ? "Not this time" : "Your move";
  const LABELS = { draw: "Draw", take: "Take pack", meld: "Meld", add: "Add", discard: "Discard", ask: "Ask partner",
    yes: "Yes", no: "No", pass: "Pass", go_out: "Go out" };
  const verbs = v.buttons.map((b) =>
    `<button data-intent="press" data-button="${esc(b)}">${esc(LABELS[b] ?? b)}</button>`).join("");
  el.innerHTML = `
  <div class="cl-root" data-status="${esc(v.status)}" data-level="${esc(v.level.id)}">
    <div class="cl-head"><h3>${v.lesson.title}</h3>${x ? "" : levelsHTML(v)}</div>
    <h4>${x ? `Attempt ${esc(x.attempt)}` : `Level ${v.index + 1}: ${v.level.title}`}</h4>
    ${v.level.intro}
    <div class="cl-goal"><strong>Goal:</strong> ${v.level.goal} <span>(par ${v.level.par})</span></div>
    <div class="cl-table">${v.table}</div>
    <div class="cl-form">
      <span class="cl-status">${statusText}</span>
      ${v.status === "passed" && !x ? stars(v.stars, `${v.stars} stars`) : ""}
      ${open ? verbs : ""}
    </div>
    <div class="cl-form">
      <input class="cl-input" type="text" aria-label="Or type your action, e.g. take 9 9 9"
        placeholder="or type it: take 9 9 9, meld K K K, add 2 to K, discard 7…" ${open ? "" : "disabled"}>
      <button class="cl-primary" data-intent="act" ${open ? "" : "disabled"}>Play</button>
    </div>
    <div class="cl-actions">
      <button data-intent="hint" ${v.has_hints ? "" : "disabled"}>${x ? esc(x.hint_label) : "Hint (costs a star)"}</button>
      <button data-intent="retry" ${!x || x.can_retry ? "" : "disabled"}>Try again</button>
      ${x ? `<button data-intent="give_up" ${x.can_give_up ? "" : "disabled"} title="Shows the answer and why: the item then earns nothing">Give up</button>`
    : `<button data-intent="next" ${v.has_next ? "" : "disabled"}>Next level</button>`}
      <span class="cl-notice" role="status">${esc(v.notice)}</span>
    </div>
    ${v.hints.length ? `<div class="cl-hints"><strong>Hints</strong>${v.hints.join("")}</div>` : ""}
    ${feedbackHTML(v)}
    ${v.conclusion ? `<div class="cl-goal">${v.conclusion}</div>` : ""}
    ${x ? examHTML(x) : ""}
  </div>`;
  const input = el.querySelector(".cl-input");
  const send = (msg) => model.send(msg);
  // cards clicked in the learner's hand, then a button: the planner in Python makes the actions
  const hand = [...el.querySelectorAll(".ct-seat-bottom .ct-hand .ct-card")];
  const selected = new Set();
  let target = null;
  hand.forEach((c, i) => {
    c.setAttribute("tabindex", "0");
    c.setAttribute("aria-pressed", "false");
    const toggle = () => {
      if (selected.has(i)) selected.delete(i); else selected.add(i);
      c.classList.toggle("cl-selected", selected.has(i));
      c.setAttribute("aria-pressed", String(selected.has(i)));
    };
    c.addEventListener("click", toggle);
    c.addEventListener("keydown", (e) => { if (e.key === " " || e.key === "Enter") { e.preventDefault(); toggle(); } });
  });
  el.querySelectorAll(".ct-melds-we .ct-meld[data-kind]").forEach((m) => {
    m.addEventListener("click", () => {
      el.querySelectorAll(".cl-target").forEach((x) => x.classList.remove("cl-target"));
      target = target === m.dataset.kind ? null : m.dataset.kind;
      if (target) m.classList.add("cl-target");
    });
  });
  el.querySelectorAll("button[data-intent]").forEach((b) => {
    b.addEventListener("click", () => {
      const intent = b.dataset.intent;
      if (intent === "press") {
        const cards = [...selected].sort((a, b) => a - b).map((i) => hand[i].dataset.card);
        const msg = { intent, button: b.dataset.button, cards };
        if (target) msg.to = target;
        send(msg);
      } else if (intent === "act") {
        const text = b.dataset.text ?? (input ? input.value : "");
        if (text.trim()) send({ intent, text });
      } else if (intent === "goto") {
        send({ intent, index: Number(b.dataset.index) });
      } else {
        send({ intent });
      }
    });
  });
  if (input) {
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && input.value.trim()) send({ intent: "act", text: input.value });
    });
    if (open) input.focus({ preventScroll: true });
  }
}

export default {
  render({ model, el }) {
    render(el, model);
    model.on("change:view", () => render(el, model));
  },
};
