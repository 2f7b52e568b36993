// canasta-tutor lesson widget: the browser side of canasta_tutor.ui.lesson.LessonWidget.
//
// Python is the single source of truth.  This module draws the synced `view` and
// sends intents with model.send({intent: ...}).  Every text in the view arrives
// as safe HTML from Python (lesson Markdown is escaped there before rendering; a
// rule number in it is a .cl-rule-link button that asks Python for the rule).
// The learner clicks cards in their hand (and, for "add", one of their melds), then a
// button; the session layer's planner (Python) turns that into actions.  Typing the action works too.
// A scoring level has no buttons: one box per line of the hand's score and a Check button.
// Stable hooks for tests: .cl-root[data-status][data-level], .cl-input,
// button[data-intent][data-button], .ct-seat-bottom .ct-card[aria-pressed],
// .cl-feedback li, .cl-stars[data-stars], .cl-hints, .cl-intro, .cl-opening, .cl-rule-link[data-rule],
// .cl-rule-panel[data-rule], .cl-score input[data-item], .cl-star-text, .cl-complete, .cl-next-lesson.
// An assignment item (the view has `exam`, plain text escaped here): one level on the student's own deal, no
// stars; the hint button says its cost and is off when no new hint is left; Try again and Give up; the answer
// once the item is closed (.cl-exam[data-closed]).

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

function ruleHTML(v) {
  const r = v.rule;
  if (!r) return "";
  return `<div class="cl-rule-panel" data-rule="${esc(r.id)}" role="dialog" aria-label="rule ${esc(r.id)}">` +
    `<div class="cl-rule-head"><b>${esc(r.id)}</b> ${esc(r.title || "")}` +
    '<button type="button" class="cl-rule-close" aria-label="close the rule">\u00d7</button></div>' +
    `<div class="cl-rule-text">${esc(r.text || "")}</div></div>`;
}

// A scoring level: one box per line of the score; what the learner typed stays after a check.
function scoreHTML(v, typed, open) {
  if (!v.score.length) return "";
  const rows = v.score.map((s) => `<label class="cl-score-line"><span>${esc(s.label)}</span>` +
    `<input type="text" inputmode="numeric" data-item="${esc(s.id)}" value="${esc(typed[s.id] ?? "")}" ` +
    `aria-label="${esc(s.label)}" ${open ? "" : "disabled"}></label>`).join("");
  return `<div class="cl-score" role="group" aria-label="Your side's score for this hand">${rows}` +
    `<button class="cl-primary" data-intent="answer" ${open ? "" : "disabled"}>Check my score</button></div>`;
}

function doneHTML(v) {
  if (v.status !== "passed") return "";
  const c = v.complete;
  let complete = "";
  if (c) {
    const next = c.next ? `<div class="cl-next-lesson">Next: lesson ${esc(c.next.order)}, ` +
      `<a href="${c.next.notebook}" data-lesson="${c.next.id}">${c.next.title}</a>. ${c.next.summary}</div>`
      : '<div class="cl-next-lesson">That was the last lesson of the course.</div>';
    complete = `<div class="cl-complete"><strong>Lesson complete.</strong> ${c.text}${next}</div>`;
  }
  return `<div class="cl-done">${v.conclusion}<div class="cl-star-text">${v.star_text}</div>${complete}</div>`;
}

function examHTML(x) {
  const answer = x.closed && x.answer ? `<div class="cl-answer">Answer: <b>${esc(x.answer)}</b>${x.why ? `<div>${esc(x.why)}</div>` : ""}</div>` : "";
  const result = x.result ? `<div class="cl-result" role="status">${esc(x.result)}</div>` : "";
  const warning = x.warning ? `<div class="cl-warning" role="alert">${esc(x.warning)}</div>` : "";
  return `<div class="cl-exam" data-closed="${esc(x.closed)}">${answer}${result}${warning}</div>`;
}

function render(el, model, ui) {
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
  const key = `${v.lesson.id}/${v.level.id}`;
  if (ui.level !== key) { ui.level = key; ui.typed = {}; }
  // the lesson's introduction: open on the first level until the learner plays, then one click away
  const introOpen = ui.introOpen ?? (v.index === 0 && !v.feedback.length);
  const intro = v.lesson.intro ? `<details class="cl-intro"${introOpen ? " open" : ""}><summary>About this lesson: ` +
    `${v.lesson.summary}</summary>${v.lesson.intro}</details>` : "";
  const opening = v.opening.length ? `<div class="cl-opening"><strong>Before your turn:</strong> ${v.opening.join(" ")}</div>` : "";
  const deal = !v.level.generated ? "" : x ? ` <span class="cl-deal" title="Each student has their own deal, from their nbgrader id">your own deal, for ${esc(x.student)}</span>`
    : ` <span class="cl-deal">a new deal each try (deal ${esc(v.level.seed)})</span>`;
  const steps = v.level.step_by_step ? ' <span class="cl-steps">Step by step: each button plays one move.</span>' : "";
  const scoring = v.score.length > 0;
  el.innerHTML = `
  <div class="cl-root" data-status="${esc(v.status)}" data-level="${esc(v.level.id)}">
    <div class="cl-head"><h3>${v.lesson.title}</h3>${x ? "" : levelsHTML(v)}</div>
    ${intro}
    <h4>${x ? `Attempt ${esc(x.attempt)}` : `Level ${v.index + 1}: ${v.level.title}`}</h4>
    ${v.level.intro}
    <div class="cl-goal"><strong>Goal:</strong> ${v.level.goal} <span>(par ${v.level.par})</span>${deal}${steps}</div>
    ${ruleHTML(v)}
    <div class="cl-table">${v.table}</div>
    ${opening}
    <div class="cl-form">
      <span class="cl-status">${statusText}</span>
      ${v.status === "passed" && !x ? stars(v.stars, `${v.stars} stars`) : ""}
      ${open ? verbs : ""}
    </div>
    ${scoring ? scoreHTML(v, ui.typed, open) : `<div class="cl-form">
      <input class="cl-input" type="text" aria-label="Or type your action, e.g. take 9 9 9"
        placeholder="or type it: take 9 9 9, meld K K K, add 2 to K, discard 7…" ${open ? "" : "disabled"}>
      <button class="cl-primary" data-intent="act" ${open ? "" : "disabled"}>Play</button>
    </div>`}
    <div class="cl-actions">
      <button data-intent="hint" ${v.has_hints ? "" : "disabled"}>${x ? esc(x.hint_label) : "Hint (costs a star)"}</button>
      <button data-intent="retry" ${!x || x.can_retry ? "" : "disabled"}>Try again</button>
      ${x ? `<button data-intent="give_up" ${x.can_give_up ? "" : "disabled"} title="Shows the answer and why: the item then earns nothing">Give up</button>`
    : `<button data-intent="next" ${v.has_next ? "" : "disabled"}>Next level</button>`}
      <span class="cl-notice" role="status">${esc(v.notice)}</span>
    </div>
    ${v.hints.length ? `<div class="cl-hints"><strong>Hints</strong>${v.hints.join("")}</div>` : ""}
    ${feedbackHTML(v)}
    ${doneHTML(v)}
    ${x ? examHTML(x) : ""}
  </div>`;
  const input = el.querySelector(".cl-input");
  const send = (msg) => model.send(msg);
  const details = el.querySelector(".cl-intro");
  // the learner's own click keeps the introduction open or closed (a toggle event also fires at render)
  if (details) details.querySelector("summary").addEventListener("click", () => { ui.introOpen = !details.open; });
  // cards clicked in the learner's hand, then a button: the planner in Python makes the actions
  const hand = [...el.querySelectorAll(".ct-seat-bottom .ct-hand .ct-card")];
  const selected = new Set();
  let target = null;
  if (!scoring) {
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
  }
  el.querySelectorAll(".cl-score input[data-item]").forEach((box) => {
    box.addEventListener("input", () => { ui.typed[box.dataset.item] = box.value; });
    box.addEventListener("keydown", (e) => { if (e.key === "Enter") el.querySelector("button[data-intent=answer]").click(); });
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
      } else if (intent === "answer") {
        const values = {};
        el.querySelectorAll(".cl-score input[data-item]").forEach((box) => { values[box.dataset.item] = box.value; });
        send({ intent, values });
      } else if (intent === "goto") {
        send({ intent, index: Number(b.dataset.index) });
      } else {
        send({ intent });
      }
    });
  });
  el.querySelectorAll(".cl-rule-link").forEach((b) => {
    b.addEventListener("click", (e) => { e.preventDefault(); send({ intent: "rule", id: b.dataset.rule }); });
  });
  const close = el.querySelector(".cl-rule-close");
  if (close) close.addEventListener("click", () => send({ intent: "rule", id: null }));
  if (input) {
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && input.value.trim()) send({ intent: "act", text: input.value });
    });
    if (open) input.focus({ preventScroll: true });
  }
  // the answer to a move, and a level's end, are scrolled into view: on a small screen they land below it
  const count = v.feedback.length;
  if (ui.seen !== null && (count > ui.seen || (v.status !== "open" && ui.status === "open"))) {
    const last = el.querySelector(".cl-done") || el.querySelector(".cl-feedback li:last-child");
    if (last && last.scrollIntoView) last.scrollIntoView({ block: "nearest" });
  }
  if (ui.rule !== (v.rule && v.rule.id) && v.rule) {
    const panel = el.querySelector(".cl-rule-panel");
    if (panel && panel.scrollIntoView) panel.scrollIntoView({ block: "nearest" });
  }
  ui.seen = count;
  ui.status = v.status;
  ui.rule = v.rule ? v.rule.id : null;
}

export default {
  render({ model, el }) {
    const ui = { seen: null, status: null, rule: null, level: null, typed: {}, introOpen: null };
    render(el, model, ui);
    model.on("change:view", () => render(el, model, ui));
  },
};
