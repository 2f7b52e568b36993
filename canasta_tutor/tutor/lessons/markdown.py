"""A small, safe Markdown renderer for lesson text.

The text is HTML-escaped first, so raw HTML in a lesson shows as text; only
then are paragraphs, ``-`` lists, ``**bold**``, ``*emphasis*`` and
```code``` turned into tags.  Links and images are not rendered.

>>> markdown_html("Take **the pack** with `take 9 9 9`.\\n\\n- one\\n- two")
'<p>Take <strong>the pack</strong> with <code>take 9 9 9</code>.</p><ul><li>one</li><li>two</li></ul>'
>>> markdown_html("<script>alert(1)</script> & *so*")
'<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; <em>so</em></p>'

With ``rule_links`` a rule number of the rule book becomes a button that opens the rule (the lesson
widget's ``cl-rule-link``, as the table's rule numbers are):

>>> print(markdown_html("Frozen (R-FRZ-2).", rule_links=True))  # doctest: +NORMALIZE_WHITESPACE
<p>Frozen (<button type="button" class="cl-rule-link" data-rule="R-FRZ-2"
title="Show rule R-FRZ-2">R-FRZ-2</button>).</p>
"""

from __future__ import annotations

import html
import re

from .course import known_rules

_CODE = re.compile(r"`([^`\n]+)`")
_RULE = re.compile(r"\bR-[A-Z]+-\d+\b")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_EM = re.compile(r"(?<![\*\w])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\*\w])")


def _link(match: re.Match[str]) -> str:
    rule = match.group(0)
    if rule not in known_rules():
        return rule
    return f'<button type="button" class="cl-rule-link" data-rule="{rule}" title="Show rule {rule}">{rule}</button>'


def _inline(text: str, rule_links: bool = False) -> str:
    parts = _CODE.split(html.escape(text, quote=True))
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(f"<code>{part}</code>")
        else:
            part = _EM.sub(r"<em>\1</em>", _BOLD.sub(r"<strong>\1</strong>", part))
            out.append(_RULE.sub(_link, part) if rule_links else part)
    return "".join(out)


def markdown_html(text: str, rule_links: bool = False) -> str:
    """Lesson Markdown as safe HTML (paragraphs, lists, bold, emphasis, code); ``rule_links``: rule numbers
    of the rule book as buttons that open the rule."""
    blocks: list[str] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = [ln.rstrip() for ln in block.splitlines() if ln.strip()]
        if not lines:
            continue
        if all(ln.lstrip().startswith(("- ", "* ")) or (i and ln.startswith("  ")) for i, ln in enumerate(lines)):
            items: list[str] = []
            for ln in lines:
                if ln.lstrip().startswith(("- ", "* ")):
                    items.append(ln.lstrip()[2:].strip())
                else:
                    items[-1] += " " + ln.strip()
            blocks.append("<ul>" + "".join(f"<li>{_inline(it, rule_links)}</li>" for it in items) + "</ul>")
        else:
            blocks.append(f"<p>{_inline(' '.join(ln.strip() for ln in lines), rule_links)}</p>")
    return "".join(blocks)


__all__ = ["markdown_html"]
