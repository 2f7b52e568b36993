// Rule numbers in outputs become links to the rule book: an engine's refusal "[R-MIN-1]" printed by a
// cell, a notebook's Markdown ("like **[R-PACK-4]**").  Only the text is wrapped (the words stay as
// they are); a click opens the rule book at that rule (index.js).  Buttons are left alone: the
// widgets' own rule buttons show the rule in place.
const RULE_IN_TEXT = /\bR-[A-Z]+-\d+\b/g;
// where the text is the learner's to edit, or already a control or a link
const SKIP = 'a, button, textarea, input, select, option, [contenteditable="true"], .cm-editor';
// where outputs and rendered Markdown live in JupyterLab and Notebook 7
const OUTPUTS = '.jp-OutputArea-output, .jp-RenderedMarkdown, .jp-RenderedHTMLCommon';

export function ruleHref(rule) {
  return `rules.md#${rule}`;
}

/**
 * Wrap every rule number of the text under `root` in a link (`known`: the numbers the book has, or null
 * for any); `skip`, a selector of more elements to leave alone.
 */
export function linkifyRules(root, known, skip = '') {
  const doc = root.ownerDocument || document;
  const leave = skip ? `${SKIP}, ${skip}` : SKIP;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes = [];
  while (walker.nextNode()) {
    const node = walker.currentNode;
    RULE_IN_TEXT.lastIndex = 0;
    if (node.parentElement && RULE_IN_TEXT.test(node.data) && !node.parentElement.closest(leave)) {
      nodes.push(node);
    }
  }
  for (const node of nodes) {
    const parts = [];
    let last = 0;
    for (const m of node.data.matchAll(RULE_IN_TEXT)) {
      if (known && !known.has(m[0])) {
        continue;
      }
      parts.push(doc.createTextNode(node.data.slice(last, m.index)));
      const a = doc.createElement('a');
      a.href = ruleHref(m[0]);
      a.className = 'ct-ext-rule-ref';
      a.dataset.rule = m[0];
      a.title = `Rule ${m[0]} in the rule book`;
      a.textContent = m[0];
      parts.push(a);
      last = m.index + m[0].length;
    }
    if (parts.length) {
      parts.push(doc.createTextNode(node.data.slice(last)));
      node.replaceWith(...parts);
    }
  }
}

/** Keep linking rule numbers in the outputs that appear under `root`; returns the observer. */
export function watchOutputs(root, knownRules) {
  const pending = new Set();
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const known = knownRules();
    for (const el of pending) {
      if (el.isConnected) {
        linkifyRules(el, known);
      }
    }
    pending.clear();
  };
  const observer = new MutationObserver(records => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        const el = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
        if (!el || !el.closest) {
          continue;
        }
        if (el.closest('.ct-ext-rulebook')) {
          continue; // the rule book links its own numbers
        }
        const output = el.closest(OUTPUTS);
        if (output) {
          pending.add(el);
        } else if (el.querySelectorAll) {
          el.querySelectorAll(OUTPUTS).forEach(o => pending.add(o));
        }
      }
    }
    if (pending.size && !scheduled) {
      scheduled = true;
      requestAnimationFrame(flush);
    }
  });
  observer.observe(root, { childList: true, subtree: true });
  root.querySelectorAll(OUTPUTS).forEach(o => linkifyRules(o, knownRules()));
  return observer;
}
