// The rule book in a tab: seeds/rules.md rendered by JupyterLab's own Markdown renderer, with
// every numbered rule anchored by its number (the list item that states R-PACK-4 gets
// id="R-PACK-4"), and every rule number in the text a link to its rule.
import { Widget } from '@lumino/widgets';

import { linkifyRules } from './linkify';

export const RULE_ID = /^R-[A-Z]+-\d+$/;

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
      linkifyRules(body, this.rules, 'strong, code'); // not the rules' own numbers
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
