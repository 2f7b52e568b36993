// The rule book in a tab: seeds/rules.md rendered by JupyterLab's own Markdown renderer, with
// every numbered rule anchored by its number (the list item that states R-PACK-4 gets
// id="R-PACK-4"), and every rule number in the text a link to its rule.
import { Widget } from '@lumino/widgets';

export const RULE_ID = /^R-[A-Z]+-\d+$/;
const RULE_IN_TEXT = /\bR-[A-Z]+-\d+\b/g;

/** The rule number a link points at: `rules.md#R-PACK-4`, `#R-PACK-4` (or null). */
export function ruleOfHref(href) {
  if (!href) {
    return null;
  }
  const m = String(href).match(/^(?:[^#?]*\/)?(?:rules\.md)?#(R-[A-Z]+-\d+)$/);
  return m ? m[1] : null;
}

/** Give each rule's list item its number as id; return the numbers anchored, in book order. */
export function anchorRules(root) {
  const anchored = [];
  for (const strong of root.querySelectorAll('strong')) {
    const id = strong.textContent.trim();
    const holder = strong.closest('li, p');
    if (!RULE_ID.test(id) || !holder || holder.firstElementChild !== strong || root.querySelector(`[id="${id}"]`)) {
      continue;
    }
    holder.id = id;
    holder.classList.add('ct-ext-rule');
    holder.dataset.rule = id;
    anchored.push(id);
  }
  return anchored;
}

/** Turn the rule numbers written in the text (not the anchors themselves) into links to their rule. */
export function linkRuleNumbers(root, known) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes = [];
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (node.parentElement && !node.parentElement.closest('a, strong, code') && RULE_IN_TEXT.test(node.data)) {
      nodes.push(node);
    }
    RULE_IN_TEXT.lastIndex = 0;
  }
  for (const node of nodes) {
    const parts = [];
    let last = 0;
    for (const m of node.data.matchAll(RULE_IN_TEXT)) {
      if (!known.has(m[0])) {
        continue;
      }
      parts.push(document.createTextNode(node.data.slice(last, m.index)));
      const a = document.createElement('a');
      a.href = `#${m[0]}`;
      a.className = 'ct-ext-rule-ref';
      a.dataset.rule = m[0];
      a.textContent = m[0];
      parts.push(a);
      last = m.index + m[0].length;
    }
    if (parts.length) {
      parts.push(document.createTextNode(node.data.slice(last)));
      node.replaceWith(...parts);
    }
  }
}

export class RuleBook extends Widget {
  /** `load()`: a promise of the rule book's Markdown; `rendermime`: JupyterLab's registry. */
  constructor(load, rendermime) {
    super();
    this.id = 'canasta-tutor-rule-book';
    this.addClass('ct-ext-rulebook');
    this.title.label = 'Canasta rule book';
    this.title.caption = 'The rules canasta-tutor follows, each with its number';
    this.node.tabIndex = -1;
    this._rendermime = rendermime;
    this.rules = new Set();
    this.ready = this._render(load);
    this.node.addEventListener('click', event => {
      const a = event.target.closest('a');
      const rule = a ? ruleOfHref(a.getAttribute('href')) : null;
      if (rule) {
        event.preventDefault();
        event.stopPropagation();
        this.show_(rule);
      }
    });
  }

  async _render(load) {
    const body = document.createElement('div');
    body.className = 'ct-ext-rulebook-body';
    try {
      const markdown = await load();
      if (this._rendermime) {
        const renderer = this._rendermime.createRenderer('text/markdown');
        const model = this._rendermime.createModel({ data: { 'text/markdown': markdown }, trusted: false });
        await renderer.renderModel(model);
        body.append(renderer.node);
      } else {
        const pre = document.createElement('pre');
        pre.textContent = markdown;
        body.append(pre);
      }
      this.rules = new Set(anchorRules(body));
      linkRuleNumbers(body, this.rules);
    } catch (err) {
      const p = document.createElement('p');
      p.className = 'ct-ext-status';
      p.textContent = `The rule book cannot be shown: ${err.message}`;
      body.append(p);
    }
    this.node.replaceChildren(body);
  }

  /** Scroll to a rule and mark it (after the book has rendered). */
  async show_(rule) {
    await this.ready;
    if (!rule) {
      return false;
    }
    const target = this.node.querySelector(`[id="${rule}"]`);
    for (const old of this.node.querySelectorAll('.ct-ext-rule-current')) {
      old.classList.remove('ct-ext-rule-current');
    }
    if (!target) {
      return false;
    }
    target.classList.add('ct-ext-rule-current');
    target.scrollIntoView({ block: 'center' });
    return true;
  }
}
