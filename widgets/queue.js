// canasta-tutor review queue: the browser side of canasta_tutor.ui.queue.QueuePanel.
//
// Draws the synced `view` (plain data from Python) and sends intents: {intent: "next"}, {intent: "reload"},
// {intent: "give_up"} (a puzzle's answer shown: a miss).  The puzzle itself is played at the card table.
// Every text is set with textContent: nothing from Python is read as HTML.  Stable hooks for tests:
// .cq-root[data-status][data-count], .cq-card[data-kind], .cq-puzzle, .cq-level, .cq-hint, .cq-verdict[data-solved],
// .cq-explanation, button[data-cq="next"|"reload"|"give_up"].

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function render({ model, el: host }) {
  const root = el("div", "cr-root cq-root");
  host.appendChild(root);

  function draw() {
    const v = model.get("view") || {};
    root.replaceChildren();
    root.dataset.status = v.status || "idle";
    root.dataset.count = String(v.count || 0);
    const head = el("div", "cr-head");
    head.appendChild(el("span", "cr-title", "Review queue"));
    const shown = v.index >= 0 && v.index < v.count ? ` card ${v.index + 1} of ${v.count}` : ` ${v.count || 0} due`;
    head.appendChild(el("span", "cq-count", shown));
    if (v.status !== "empty" && v.status !== "done" && v.status !== "error") {
      const b = el("button", "cr-btn", "Next card");
      b.type = "button";
      b.dataset.cq = "next";
      head.appendChild(b);
    }
    const r = el("button", "cr-btn", "Reload");
    r.type = "button";
    r.dataset.cq = "reload";
    head.appendChild(r);
    root.appendChild(head);
    if (v.card && v.card.kind) {
      const c = el("div", "cq-card", v.card.title);
      c.dataset.kind = v.card.kind;
      root.appendChild(c);
    }
    const msg = el("div", "cr-message", v.message || "");
    msg.setAttribute("role", "status");
    root.appendChild(msg);
    const p = v.puzzle;
    if (p && v.status === "card") {
      const box = el("div", "cq-puzzle");
      for (const h of p.hints || []) box.appendChild(el("p", "cq-hint", `Hint: ${h}`));
      const give = el("button", "cr-btn", "Show the answer");
      give.type = "button";
      give.dataset.cq = "give_up";
      box.appendChild(give);
      root.appendChild(box);
    }
    const lv = v.level;
    if (lv && v.status === "card") {
      const box = el("div", "cq-level");
      for (const h of lv.hints || []) box.appendChild(el("p", "cq-hint", `Hint: ${h}`));
      root.appendChild(box);
    }
    if (v.answer) {
      const verdict = el("div", "cq-verdict", `${v.answer.played}: ${v.answer.grade}`);
      verdict.dataset.solved = v.answer.solved ? "true" : "false";
      root.appendChild(verdict);
      root.appendChild(el("p", "cr-explanation cq-explanation", v.answer.text));
    }
  }

  root.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-cq]");
    if (b) model.send({ intent: b.dataset.cq });
  });
  model.on("change:view", draw);
  draw();
  return () => model.off("change:view", draw);
}

export default { render };
