// canasta-tutor puzzle trainer: the browser side of canasta_tutor.ui.puzzle.PuzzleTrainer.
//
// Python composes this module after table.js: the card table below the puzzle panel is
// table.js's own render() on the same model (the synced `view`), not a copy of it.  This
// part draws the synced `puzzle` dict (plain text and numbers from Python, every text
// escaped here) and sends intents: {intent: "next"} (on an open puzzle: give it up),
// {intent: "theme", theme},
// {intent: "streak", on}.  The learner plays the answer on the table by clicks; Python
// judges it.  Timed mode: {intent: "timed", on}; the clock counts down here from Python's
// `remaining` and, at zero, sends {intent: "tick"}: Python's own clock decides (a .cp-clock
// whose data-over is "true" is Python's word).  Stable hooks for tests: .cp-clock[data-remaining],
// .cp-score[data-score], .cp-root[data-status][data-puzzle], .cp-verdict[data-correct],
// .cp-explanation, .cp-rating[data-rating], .cp-change[data-change], .cp-streak[data-count],
// select.cp-theme, button[data-cp], .cp-summary tr[data-theme].
// An assignment item (the synced `puzzle` has `exam`): the item's label, the verdict, the hints, Try again and
// Give up, the answer once the item is closed; no rating, theme, streak or timed run (.cp-exam[data-closed]).

function signed(n) {
  return n > 0 ? `+${n}` : `${n}`;
}

function themeOptions(p) {
  const all = `<option value=""${p.theme ? "" : " selected"}>Every theme</option>`;
  return all + p.theme_list.map((t) => `<option value="${esc(t.id)}"${t.id === p.theme ? " selected" : ""}>${esc(t.text)} (${esc(t.count)})</option>`).join("");
}

function verdictHTML(p) {
  if (!p.verdict) return `<div class="cp-objective">${esc(p.objective)}</div>`;
  const cls = p.correct ? "cp-right" : "cp-wrong";
  // words first (the facts and the puzzle's note), then the numbers
  const expl = p.explanation ? `<div class="cp-explanation">${withRuleLinks(p.explanation)}</div>` : "";
  const figures = p.figures ? `<div class="cp-figures">${withRuleLinks(p.figures)}</div>` : "";
  const sol = p.solution && p.status !== "open" ? `<div class="cp-solution">Answer: <b>${esc(p.solution)}</b></div>` : "";
  const note = p.note && p.correct ? `<div class="cp-note">${esc(p.note)}</div>` : "";
  const themes = p.themes.length ? `<div class="cp-themes">Themes: ${p.themes.map((t) => `<span class="cp-theme-tag" title="${esc(t.text)}">${esc(t.text)}</span>`).join(" ")}</div>` : "";
  return `<div class="cp-verdict ${cls}" data-correct="${p.correct ? "true" : "false"}" role="status" aria-live="polite"><div class="cp-verdict-text">${withRuleLinks(p.verdict)}</div>${expl}${figures}${sol}${note}${themes}</div>`;
}

function ratingHTML(p) {
  const change = p.change == null ? "" : `<span class="cp-change ${p.change >= 0 ? "cp-up" : "cp-down"}" data-change="${esc(p.change)}">${esc(signed(p.change))}</span>`;
  const was = p.before == null ? "" : `<span class="cp-before">was ${esc(p.before)}</span>`;
  return `<span class="cp-rating" data-rating="${esc(p.rating)}" title="Glicko-2 rating, deviation ${esc(p.rd)}">Your rating <b>${esc(p.rating)}</b></span> ${change} ${was}`;
}

function streakHTML(p) {
  const s = p.streak;
  if (!s.on) return `<button type="button" data-cp="streak-on" title="Puzzles from easy to hard until your first miss">Start a streak</button>`;
  const over = s.over ? ' <span class="cp-streak-over">streak over</span>' : "";
  return `<span class="cp-streak" data-count="${esc(s.count)}">Streak <b>${esc(s.count)}</b> (best ${esc(s.best)})${over}</span> `
    + `<button type="button" data-cp="${s.over ? "streak-on" : "streak-off"}">${s.over ? "New streak" : "Leave the streak"}</button>`;
}

function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function timedHTML(p) {
  const tm = p.timed;
  if (!tm.on) return `<button type="button" data-cp="timed-on" title="Three minutes: solve as many puzzles as you can, from easy to hard; a miss costs time">Timed run</button>`;
  const clock = `<span class="cp-clock${tm.over ? " cp-clock-over" : ""}" data-remaining="${esc(Math.ceil(tm.remaining))}" data-over="${tm.over ? "true" : "false"}" role="timer" aria-label="Time left">${esc(clockText(tm.remaining))}</span>`;
  const score = `<span class="cp-score" data-score="${esc(tm.score)}">Solved <b>${esc(tm.score)}</b> · missed ${esc(tm.misses)} · combo ${esc(tm.combo)}</span>`;
  const buttons = tm.over
    ? `<button type="button" class="cp-primary" data-cp="timed-on">Again</button> <button type="button" data-cp="timed-off">Back to rated puzzles</button>`
    : `<button type="button" data-cp="next" title="A miss: costs ${esc(tm.penalty)} seconds">Skip</button> <button type="button" data-cp="timed-off">Stop</button>`;
  return `${clock} ${score} ${buttons}`;
}

function timedResultHTML(p) {
  const tm = p.timed;
  const last = tm.last ? `<div class="cp-last ${tm.last_correct ? "cp-right" : "cp-wrong"}">${esc(tm.last)}</div>` : "";
  if (!tm.over) return last;
  const why = tm.ended === "time" ? "Time is up" : tm.ended === "done" ? "Every puzzle of the run is played" : "Stopped";
  const best = tm.best_rating == null ? "" : `, the hardest rated ${esc(tm.best_rating)}`;
  return `${last}<div class="cp-timed-result" data-score="${esc(tm.score)}" role="status">${esc(why)}: <b>${esc(tm.score)}</b> solved, ${esc(tm.misses)} missed, best combo ${esc(tm.best_combo)}${best}.</div>`;
}

function summaryHTML(p) {
  if (!p.summary.length) return "";
  const rows = p.summary.map((r) => `<tr data-theme="${esc(r.theme)}"><td>${esc(r.meaning || r.theme)}</td><td class="cp-num">${esc(r.solved)} / ${esc(r.tried)}</td><td class="cp-num">${esc(Math.round(r.share * 100))}%</td><td class="cp-num">${esc(r.puzzle_rating)}</td></tr>`).join("");
  return `<details class="cp-summary"><summary>Your results by theme (${esc(p.tried)} ${p.tried === 1 ? "puzzle" : "puzzles"})</summary><table><thead><tr><th>Theme</th><th>Solved</th><th>Share</th><th>Puzzle rating</th></tr></thead><tbody>${rows}</tbody></table></details>`;
}

function examHTML(p) {
  const x = p.exam;
  const retry = x.can_retry ? `<button type="button" class="cp-primary" data-cp="retry">Try again</button>` : "";
  const giveUp = x.can_give_up ? `<button type="button" data-cp="give_up" title="Shows the answer and why: the item then earns nothing">Give up</button>` : "";
  const deal = x.own_deal ? `<span class="cp-deal" title="Each student has their own puzzle: yours is chosen for your nbgrader id">your own puzzle, for ${esc(x.student)}</span>` : "";
  const bar = `<div class="cp-bar"><span class="cp-id"><b>${esc(x.label)}</b> \u00b7 attempt ${esc(x.attempt)}</span>${deal}${retry}${giveUp}</div>`;
  const result = x.result ? `<div class="cp-result" role="status">${esc(x.result)}</div>` : "";
  const answer = x.closed && x.answer ? `<div class="cp-solution">Answer: <b>${esc(x.answer)}</b>${x.why ? `<div class="cp-why">${esc(x.why)}</div>` : ""}</div>` : "";
  const warning = x.warning ? `<div class="cp-warning" role="alert">${esc(x.warning)}</div>` : "";
  const hints = p.hints.length ? `<ul class="cp-hints">${p.hints.map((h) => `<li>${esc(h)}</li>`).join("")}</ul>` : "";
  const verdict = p.verdict ? verdictHTML({ ...p, solution: "" }) : `<div class="cp-objective">${esc(p.objective)}</div>`;
  return `<div class="cp-exam" data-closed="${esc(x.closed)}">${bar}${verdict}${answer}${result}${hints}${warning}`
    + (p.notice ? `<div class="cp-notice" role="status">${esc(p.notice)}</div>` : "") + "</div>";
}

function renderPuzzle({ model, el }) {
  const panel = document.createElement("div");
  panel.className = "cp-root";
  const tableEl = document.createElement("div");
  el.appendChild(panel);
  el.appendChild(tableEl);
  const stopTable = render({ model, el: tableEl });
  let summaryOpen = false;

  function draw() {
    const p = model.get("puzzle") || {};
    if (!p.id) { panel.textContent = "Loading the puzzle\u2026"; return; }
    if (p.exam) {
      panel.dataset.status = p.status;
      panel.dataset.puzzle = p.id;
      panel.innerHTML = examHTML(p);
      deadline = null;
      return;
    }
    const open = panel.querySelector(".cp-summary");
    if (open) summaryOpen = open.open;
    const hints = p.hints.length ? `<ul class="cp-hints">${p.hints.map((h) => `<li>${esc(h)}</li>`).join("")}</ul>` : "";
    const timed = p.timed && p.timed.on;
    const next = timed || (p.streak.on && p.streak.over) ? "" : (p.open
      ? `<button type="button" data-cp="next" title="Show the answer: the puzzle counts as missed">Give up</button>`
      : `<button type="button" class="cp-primary" data-cp="next">Next puzzle</button>`);
    panel.dataset.status = p.status;
    panel.dataset.puzzle = p.id;
    panel.innerHTML = `<div class="cp-bar"><span class="cp-id">Puzzle <b>${esc(p.id)}</b> \u00b7 rated ${esc(p.puzzle_rating)}</span>`
      + `<span class="cp-rating-box">${ratingHTML(p)}</span>`
      + `<label class="cp-filter">Theme <select class="cp-theme" aria-label="Only puzzles of one theme"${timed ? " disabled" : ""}>${themeOptions(p)}</select></label>`
      + (timed ? "" : `<span class="cp-streak-box">${streakHTML(p)}</span>`) + `<span class="cp-timed-box">${timedHTML(p)}</span>${next}</div>`
      + (timed ? timedResultHTML(p) : "") + verdictHTML(p) + hints
      + (p.notice ? `<div class="cp-notice" role="status">${esc(p.notice)}</div>` : "")
      + summaryHTML(p);
    const s = panel.querySelector(".cp-summary");
    if (s && summaryOpen) s.open = true;
    deadline = timed && !p.timed.over ? performance.now() + p.timed.remaining * 1000 : null;
    ticked = false;
  }

  // the countdown: drawn here, decided in Python (at zero the browser asks; Python's clock answers)
  let deadline = null;
  let ticked = false;
  function tick() {
    if (deadline === null) return;
    const left = (deadline - performance.now()) / 1000;
    const c = panel.querySelector(".cp-clock");
    if (c) {
      c.textContent = clockText(left);
      c.dataset.remaining = String(Math.max(0, Math.ceil(left)));
    }
    if (left <= 0 && !ticked) {
      ticked = true;
      model.send({ intent: "tick" });
    }
  }
  const timer = setInterval(tick, 250);

  function onClick(ev) {
    const rule = ev.target.closest(".ct-rule-link");
    if (rule) { model.send({ type: "rule", intent: "rule", id: rule.dataset.rule }); return; }
    const b = ev.target.closest("button[data-cp]");
    if (!b) return;
    const what = b.dataset.cp;
    if (what === "next") model.send({ intent: "next" });
    else if (what === "streak-on") model.send({ intent: "streak", on: true });
    else if (what === "streak-off") model.send({ intent: "streak", on: false });
    else if (what === "timed-on") model.send({ intent: "timed", on: true });
    else if (what === "timed-off") model.send({ intent: "timed", on: false });
    else if (what === "retry") model.send({ intent: "retry" });
    else if (what === "give_up") model.send({ intent: "give_up" });
  }

  function onChange(ev) {
    if (ev.target.classList.contains("cp-theme")) model.send({ intent: "theme", theme: ev.target.value });
  }

  function onKey(ev) {
    ev.stopPropagation(); // keep the notebook's shortcuts out of the panel
  }

  panel.addEventListener("click", onClick);
  panel.addEventListener("change", onChange);
  panel.addEventListener("keydown", onKey);
  model.on("change:puzzle", draw);
  draw();
  return () => {
    clearInterval(timer);
    model.off("change:puzzle", draw);
    panel.removeEventListener("click", onClick);
    panel.removeEventListener("change", onChange);
    panel.removeEventListener("keydown", onKey);
    if (typeof stopTable === "function") stopTable();
  };
}

export default { render: renderPuzzle };
