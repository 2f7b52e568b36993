"""Move a page's ``<style>`` rules into ``style`` attributes, for viewers that drop style sheets.

A notebook that has not been trusted (every notebook in a fresh clone) shows
its stored HTML outputs through JupyterLab's sanitizer, which removes
``<style>`` elements but keeps ``style`` attributes.  The card table's stored
output would then be unstyled boxes.  :func:`inline_styles` applies the
style sheet to the markup once, in Python, so the stored table looks like the
live one.

Only what the table's CSS uses is supported: class, tag, id and attribute
selectors, the descendant, child and next-sibling combinators,
``:first-child``/``:last-child``, specificity and source order, and
``var(--name, fallback)``.  Rules with other pseudo-classes (``:hover``,
``::after``), and every at-rule (``@container``, ``@media``, ``@keyframes``),
are left out unless asked for: the result is the widest layout, at rest, or
with ``container=True`` the narrowest (the ``@container`` rules applied).

>>> inline_styles('<style>.a { color: red } p.a { color: blue }</style><p class="a">x</p><i class="a">y</i>')
'<p class="a" style="color: blue">x</p><i class="a" style="color: red">y</i>'
>>> inline_styles('<style>.t { --c: #123; } .t > b { color: var(--c); }</style><div class="t"><b>z</b></div>')
'<div class="t"><b style="color: #123">z</b></div>'
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

__all__ = ["inline_styles"]

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_SIMPLE = re.compile(r"""([.#]?[A-Za-z_][\w-]*|\*|\[[^\]]+\]|:first-child|:last-child)""")
_VAR = re.compile(r"var\(\s*(--[\w-]+)\s*(?:,\s*([^()]*(?:\([^()]*\))?[^()]*))?\)")


@dataclass
class _Node:
    tag: str
    attrs: list[tuple[str, str | None]]
    parent: _Node | None = None
    children: list[_Node | str] = field(default_factory=list)

    def attr(self, name: str) -> str | None:
        for k, v in self.attrs:
            if k == name:
                return v if v is not None else ""
        return None

    def elements(self) -> list[_Node]:
        return [c for c in self.children if isinstance(c, _Node)]


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = _Node("#root", [])
        self.cur = self.root
        self.css: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "style":
            self._in_style = True
            return
        node = _Node(tag, attrs, self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.cur.children.append(_Node(tag, attrs, self.cur))

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self._in_style = False
            return
        node: _Node | None = self.cur
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.cur = node.parent

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.css.append(data)
        else:
            self.cur.children.append(data)


@dataclass
class _Rule:
    selector: list[tuple[str, list[str]]]  # (combinator to the left, simple selectors), rightmost last
    specificity: tuple[int, int, int]
    order: int
    decls: list[tuple[str, str]]


def _parse_selector(text: str) -> list[tuple[str, list[str]]] | None:
    text = re.sub(r"\s*([>+])\s*", r" \1 ", text.strip())
    parts: list[tuple[str, list[str]]] = []
    comb = " "
    for token in text.split():
        if token in (">", "+"):
            comb = token
            continue
        simples = _SIMPLE.findall(token)
        if "".join(simples) != token:
            return None  # a pseudo-class or selector we do not apply
        parts.append((comb, simples))
        comb = " "
    return parts or None


def _specificity(parts: list[tuple[str, list[str]]]) -> tuple[int, int, int]:
    a = b = c = 0
    for _, simples in parts:
        for s in simples:
            if s.startswith("#"):
                a += 1
            elif s.startswith((".", "[", ":")):
                b += 1
            elif s != "*":
                c += 1
    return a, b, c


def _parse_css(css: str, container: bool = False, rules: list[_Rule] | None = None,
               variables: dict[str, str] | None = None) -> tuple[list[_Rule], dict[str, str]]:
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    rules = [] if rules is None else rules
    variables = {} if variables is None else variables
    i, depth, start, prelude = 0, 0, 0, ""
    order = len(rules)
    while i < len(css):
        ch = css[i]
        if ch == "{":
            if depth == 0:
                prelude = css[start:i].strip()
                start = i + 1
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                body = css[start:i]
                start = i + 1
                if container and prelude.startswith("@container"):
                    _parse_css(body, container, rules, variables)
                    order = len(rules)
                elif not prelude.startswith("@"):
                    decls = []
                    for d in body.split(";"):
                        if ":" in d:
                            k, v = d.split(":", 1)
                            k, v = k.strip(), v.strip()
                            if k.startswith("--"):
                                variables.setdefault(k, v)
                            else:
                                decls.append((k, v))
                    for sel in prelude.split(","):
                        parts = _parse_selector(sel)
                        if parts is not None and decls:
                            rules.append(_Rule(parts, _specificity(parts), order, decls))
                            order += 1
        i += 1
    return rules, variables


def _matches_simple(node: _Node, simples: list[str]) -> bool:
    classes = (node.attr("class") or "").split()
    for s in simples:
        if s == "*":
            continue
        if s.startswith("."):
            if s[1:] not in classes:
                return False
        elif s.startswith("#"):
            if node.attr("id") != s[1:]:
                return False
        elif s.startswith("["):
            name, _, value = s[1:-1].partition("=")
            got = node.attr(name.strip())
            if got is None or (value and got != value.strip().strip("\"'")):
                return False
        elif s in (":first-child", ":last-child"):
            siblings = node.parent.elements() if node.parent else [node]
            if node is not (siblings[0] if s == ":first-child" else siblings[-1]):
                return False
        elif node.tag != s.lower():
            return False
    return True


def _matches(node: _Node | None, parts: list[tuple[str, list[str]]]) -> bool:
    if node is None or node.tag == "#root" or not _matches_simple(node, parts[-1][1]):
        return False
    if len(parts) == 1:
        return True
    comb, rest = parts[-1][0], parts[:-1]
    if comb == ">":
        return _matches(node.parent, rest)
    if comb == "+":
        siblings = node.parent.elements() if node.parent else []
        i = next(k for k, s in enumerate(siblings) if s is node)
        return i > 0 and _matches(siblings[i - 1], rest)
    up = node.parent
    while up is not None and up.tag != "#root":
        if _matches(up, rest):
            return True
        up = up.parent
    return False


def _resolve(value: str, variables: dict[str, str], depth: int = 0) -> str:
    def one(m: re.Match[str]) -> str:
        got = variables.get(m.group(1))
        if got is None:
            got = (m.group(2) or "").strip()
        return _resolve(got, variables, depth + 1) if depth < 8 else got

    return _VAR.sub(one, value)


def _emit(node: _Node, rules: list[_Rule], variables: dict[str, str], out: list[str]) -> None:
    for child in node.children:
        if isinstance(child, str):
            out.append(html.escape(child, quote=False))
            continue
        styles: dict[str, tuple[tuple[int, int, int], int, str]] = {}
        for r in rules:
            if _matches(child, r.selector):
                for k, v in r.decls:
                    important = v.endswith("!important")
                    key = ((9, 0, 0) if important else r.specificity, r.order)
                    if k not in styles or key >= styles[k][:2]:
                        styles[k] = (key[0], key[1], v.replace("!important", "").strip())
        style = "; ".join(f"{k}: {_resolve(v, variables)}" for k, (_, _, v) in styles.items())
        own = child.attr("style")
        if own:
            style = f"{style}; {own}" if style else own
        attrs = [(k, v) for k, v in child.attrs if k != "style"]
        if style:
            attrs.append(("style", style))
        text = "".join(f' {k}="{html.escape(v)}"' if v is not None else f" {k}" for k, v in attrs)
        out.append(f"<{child.tag}{text}>")
        if child.tag not in VOID:
            _emit(child, rules, variables, out)
            out.append(f"</{child.tag}>")


def inline_styles(markup: str, container: bool = False) -> str:
    """Return ``markup`` with its ``<style>`` elements removed and their rules put in ``style`` attributes.

    ``container=True`` also applies the rules inside ``@container`` blocks, in order: the layout for a
    narrow container, which fits a notebook column of any width.
    """
    tree = _Tree()
    tree.feed(markup)
    tree.close()
    rules, variables = _parse_css("".join(tree.css), container)
    out: list[str] = []
    _emit(tree.root, rules, variables, out)
    return "".join(out)
