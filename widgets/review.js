// canasta-tutor Review panel: the browser side of canasta_tutor.review_widget.ReviewPanel.
//
// Draws the synced `view` (plain data from Python) and sends intents: {intent: "review"},
// {intent: "retry", ply}, {intent: "back"}, {intent: "save"}.  Every text is set with textContent:
// nothing from Python (a record's words included) is ever read as HTML.  Stable hooks for tests:
// .cr-root[data-status], .cr-progress[data-done][data-total], .cr-accuracy, .cr-row[data-ply][data-grade],
// .cr-explanation[data-ply], button[data-cr="review"|"retry"|"back"|"save"], .cr-queued[data-count].

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function button(intent, label, extra) {
  const b = el("button", "cr-btn", label);
  b.type = "button";
  b.dataset.cr = intent;
  if (extra) Object.assign(b.dataset, extra);
  return b;
}

function render({ model, el: host }) {
  const root = el("div", "cr-root");
  host.appendChild(root);

  function send(msg) {
    model.send(msg);
  }

  function draw() {
    const v = model.get("view") || {};
    root.replaceChildren();
    root.dataset.status = v.status || "idle";
    const head = el("div", "cr-head");
    head.appendChild(el("span", "cr-title", "Review"));
    const start = button("review", v.status === "done" ? "Review again" : "Review this hand");
    start.disabled = v.status === "running";
    head.appendChild(start);
    if (v.retrying !== null && v.retrying !== undefined) head.appendChild(button("back", "Back to the game"));
    if (v.status === "done") head.appendChild(button("save", "Save mistakes to my review queue"));
    root.appendChild(head);

    const msg = el("div", "cr-message", v.message || "");
    msg.setAttribute("role", "status");
    root.appendChild(msg);
    if (v.status === "running") {
      const bar = el("progress", "cr-progress");
      bar.max = Math.max(1, v.total || 1);
      bar.value = v.done || 0;
      bar.dataset.done = String(v.done || 0);
      bar.dataset.total = String(v.total || 0);
      root.appendChild(bar);
    }
    if (v.queued !== null && v.queued !== undefined) {
      const q = el("div", "cr-queued", `${v.queued} cards in your review queue.`);
      q.dataset.count = String(v.queued);
      root.appendChild(q);
    }
    if (v.status !== "done") return;

    const acc = el("div", "cr-accuracy");
    acc.appendChild(el("b", "", `Accuracy ${v.accuracy || "–"}`));
    acc.appendChild(el("span", "", `; ${v.mean_loss} points lost per decision on average.`));
    root.appendChild(acc);
    root.appendChild(el("div", "cr-means", v.accuracy_means));

    const table = el("table", "cr-decisions");
    const hr = el("tr");
    for (const h of ["Hand", "Your move", "Grade", "Points lost", "The hint", ""]) hr.appendChild(el("th", "", h));
    table.appendChild(hr);
    const costly = new Set(v.costliest || []);
    for (const d of v.decisions || []) {
      const tr = el("tr", `cr-row cr-${d.grade}${costly.has(d.ply) ? " cr-costly" : ""}`);
      tr.dataset.ply = String(d.ply);
      tr.dataset.grade = d.grade;
      tr.appendChild(el("td", "", d.hand));
      tr.appendChild(el("td", "cr-move", d.action));
      const g = el("td", "cr-grade", d.grade);
      g.title = (v.grades || {})[d.grade] || "";
      tr.appendChild(g);
      tr.appendChild(el("td", "cr-loss", d.loss));
      tr.appendChild(el("td", "cr-best", d.grade === "best" ? "" : d.best));
      const td = el("td");
      td.appendChild(button("retry", "Try again from here", { ply: String(d.ply) }));
      tr.appendChild(td);
      tr.title = d.verdict || "";
      table.appendChild(tr);
    }
    root.appendChild(table);

    const worst = (v.decisions || []).filter((d) => costly.has(d.ply));
    worst.sort((a, b) => v.costliest.indexOf(a.ply) - v.costliest.indexOf(b.ply));
    if (worst.length) {
      root.appendChild(el("div", "cr-subtitle", "The costliest decisions"));
      for (const d of worst) {
        const p = el("p", "cr-explanation");
        p.dataset.ply = String(d.ply);
        p.appendChild(el("b", "cr-label", `Hand ${d.hand}, ${d.action} (${d.grade}): `));
        p.appendChild(el("span", "", d.explanation));
        root.appendChild(p);
      }
    } else {
      root.appendChild(el("p", "cr-explanation", "No decision lost points beyond the search's noise."));
    }
  }

  root.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-cr]");
    if (!b || b.disabled) return;
    const intent = b.dataset.cr;
    if (intent === "retry") send({ intent, ply: Number(b.dataset.ply) });
    else send({ intent });
  });
  model.on("change:view", draw);
  draw();
  return () => model.off("change:view", draw);
}

export default { render };
