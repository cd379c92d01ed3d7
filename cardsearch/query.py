"""The query language: tokens and a tree, read in one left-to-right pass (no backtracking over user text).

    blue eyes                 name words, any order (case, punctuation, hyphens and diacritics ignored)
    !"Dark Magician"          exactly this name
    t:dragon  o:"destroy all" field:value (contains / equals by the field's kind), quoted phrases
    atk>=3000  lv<4  cost!=2  comparisons = != < <= > >= on numbers
    -banned:  -t:spell        "-" negates any term or group
    a or b   (a or b) c       or / OR / или, parentheses; terms side by side must all match
    o:/draw \\d cards?/        a bounded regular expression on a text field

Which field names exist is the game's business (``fields.FieldTable``); the parser only splits the text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_QUERY_CHARS = 1000
MAX_TERMS = 60
MAX_DEPTH = 16
OPERATORS = (">=", "<=", "!=", ":", "=", "<", ">")
OR_WORDS = frozenset({"or", "или"})
AND_WORDS = frozenset({"and"})


class QueryError(ValueError):
    """A query that cannot be read. ``code`` names the message (cards.search words it in the reader's
    language), ``start``/``end`` the characters of the token at fault, ``params`` what the message quotes."""

    def __init__(self, code: str, start: int, end: int, **params: object) -> None:
        self.code, self.start, self.end, self.params = code, start, end, params
        super().__init__(f"{code} at {start}-{end}: {params}")

    @property
    def token(self) -> str:
        return str(self.params.get("token", ""))


@dataclass(frozen=True, slots=True)
class Term:
    """One condition. ``field`` is "" for bare words (names); ``kind`` is word / phrase / regex / exact."""

    field: str
    op: str
    value: str
    kind: str = "word"
    start: int = 0
    end: int = 0
    # The field name as typed (an alias, in any case): error messages and suggestions quote it.
    typed: str = ""
    # A condition of a rule set's FILTER (``games.filters.filter_tree``) names the card field it reads
    # (``source``, as FieldSpec.source: card_type, subtypes, attr.atk…) and its typed values instead of a
    # field name and text: kind "any" (equals one of, a list value containing one), "contains" (a text
    # holding one of), "number" (``op`` against values[0]). Judged by the same ``compile_query``.
    source: str = ""
    values: tuple[object, ...] = ()


@dataclass(frozen=True, slots=True)
class And:
    items: tuple[object, ...]


@dataclass(frozen=True, slots=True)
class Or:
    items: tuple[object, ...]


@dataclass(frozen=True, slots=True)
class Not:
    item: object


@dataclass
class _Token:
    kind: str  # "(" ")" "-" "or" "and" "term"
    start: int
    end: int
    term: Term | None = None


@dataclass
class _Lexer:
    text: str
    pos: int = 0
    tokens: list[_Token] = field(default_factory=list)

    def run(self) -> list[_Token]:
        text = self.text
        n = len(text)
        while self.pos < n:
            ch = text[self.pos]
            if ch.isspace():
                self.pos += 1
            elif ch in "()":
                self.tokens.append(_Token(ch, self.pos, self.pos + 1))
                self.pos += 1
            elif ch == "-" and self.pos + 1 < n and not text[self.pos + 1].isspace():
                self.tokens.append(_Token("-", self.pos, self.pos + 1))
                self.pos += 1
            else:
                self.term()
        return self.tokens

    def quoted(self, quote_at: int) -> tuple[str, int]:
        """The text between a quote at ``quote_at`` and its closing quote (\\" inside is a quote)."""
        text, i, out = self.text, quote_at + 1, []
        while i < len(text):
            ch = text[i]
            if ch == "\\" and i + 1 < len(text) and text[i + 1] in '"\\':
                out.append(text[i + 1])
                i += 2
                continue
            if ch == '"':
                return "".join(out), i + 1
            out.append(ch)
            i += 1
        raise QueryError("unclosed_quote", quote_at, len(text), token=text[quote_at : quote_at + 20])

    def regex(self, slash_at: int) -> tuple[str, int]:
        text, i, out = self.text, slash_at + 1, []
        while i < len(text):
            ch = text[i]
            if ch == "\\" and i + 1 < len(text):
                out.append(text[i : i + 2] if text[i + 1] != "/" else "/")
                i += 2
                continue
            if ch == "/":
                return "".join(out), i + 1
            out.append(ch)
            i += 1
        raise QueryError("unclosed_regex", slash_at, len(text), token=text[slash_at : slash_at + 20])

    def term(self) -> None:
        text, start = self.text, self.pos
        exact = text[start] == "!" and start + 1 < len(text) and text[start + 1] != "="
        i = start + 1 if exact else start
        if i < len(text) and text[i] == '"':
            value, end = self.quoted(i)
            self.push(Term("", ":", value, "exact" if exact else "phrase", start, end))
            return
        if i < len(text) and text[i] == "/" and not exact:
            value, end = self.regex(i)
            self.push(Term("", ":", value, "regex", start, end))
            return
        # A field name: letters, digits and _ (any script), then an operator.
        j = i
        while j < len(text) and (text[j].isalnum() or text[j] == "_"):
            j += 1
        op = next((o for o in OPERATORS if text.startswith(o, j)), "") if j > i and not exact else ""
        if op:
            name, k = text[i:j], j + len(op)
            if k < len(text) and text[k] == '"':
                value, end = self.quoted(k)
                self.push(Term(name.casefold(), op, value, "phrase", start, end, name))
            elif k < len(text) and text[k] == "/" and op == ":":
                value, end = self.regex(k)
                self.push(Term(name.casefold(), op, value, "regex", start, end, name))
            else:
                end = self.word_end(k)
                self.push(Term(name.casefold(), op, text[k:end], "word", start, end, name))
            return
        end = self.word_end(i)
        word = text[i:end]
        if not word:
            raise QueryError("unexpected", start, start + 1, token=text[start])
        if word == "-":
            raise QueryError("dangling_minus", start, end, token="-")
        low = word.casefold()
        if not exact and low in OR_WORDS:
            self.tokens.append(_Token("or", start, end))
            self.pos = end
            return
        if not exact and low in AND_WORDS:
            self.tokens.append(_Token("and", start, end))
            self.pos = end
            return
        self.push(Term("", ":", word, "exact" if exact else "word", start, end))

    def word_end(self, i: int) -> int:
        text = self.text
        while i < len(text) and not text[i].isspace() and text[i] not in "()":
            i += 1
        return i

    def push(self, term: Term) -> None:
        self.tokens.append(_Token("term", term.start, term.end, term))
        self.pos = term.end


class _Parser:
    def __init__(self, tokens: list[_Token], text: str) -> None:
        self.tokens, self.text, self.i, self.depth = tokens, text, 0, 0

    def peek(self) -> _Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def parse(self) -> object:
        node = self.or_expr()
        token = self.peek()
        if token is not None:  # only a stray ")" can be left over
            raise QueryError("unopened_paren", token.start, token.end, token=")")
        return node

    def or_expr(self) -> object:
        items = [self.and_expr()]
        while (token := self.peek()) is not None and token.kind == "or":
            self.i += 1
            if self.peek() is None or self.peek().kind in {")", "or"}:  # type: ignore[union-attr]
                raise QueryError(
                    "or_needs_term", token.start, token.end, token=self.text[token.start : token.end]
                )
            items.append(self.and_expr())
        return items[0] if len(items) == 1 else Or(tuple(items))

    def and_expr(self) -> object:
        items: list[object] = []
        while (token := self.peek()) is not None and token.kind not in {")", "or"}:
            if token.kind == "and":
                self.i += 1
                continue
            items.append(self.unary())
        if not items:
            token = self.peek()
            if token is None:
                raise QueryError("empty_group", len(self.text), len(self.text), token="")
            raise QueryError("empty_group", token.start, token.end, token=self.text[token.start : token.end])
        return items[0] if len(items) == 1 else And(tuple(items))

    def unary(self) -> object:
        token = self.peek()
        assert token is not None
        if token.kind == "-":
            self.i += 1
            if self.peek() is None or self.peek().kind in {")", "or", "and"}:  # type: ignore[union-attr]
                raise QueryError("dangling_minus", token.start, token.end, token="-")
            return Not(self.unary())
        if token.kind == "(":
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise QueryError("too_deep", token.start, token.end, token="(", max=MAX_DEPTH)
            self.i += 1
            node = self.or_expr()
            close = self.peek()
            if close is None or close.kind != ")":
                raise QueryError("unclosed_paren", token.start, token.end, token="(")
            self.i += 1
            self.depth -= 1
            return node
        self.i += 1
        assert token.term is not None
        return token.term


def parse(text: str, keywords: object = None) -> object | None:
    """The query's tree (Term / And / Or / Not), or None for an empty query. Raises QueryError.

    With ``keywords`` (the game's, anything supporting ``in``), a name that only looks like a field is read
    as name words: "Number 39: Utopia" has no field "39", "Borrowing the Arcane: …" none "arcane" with an
    empty value. A letters-only unknown keyword with a value ("akt>1") stays a field, refused by name."""
    if len(text) > MAX_QUERY_CHARS:
        raise QueryError("too_long", MAX_QUERY_CHARS, len(text), token="", max=MAX_QUERY_CHARS)
    tokens = _Lexer(text).run()
    if not tokens:
        return None
    terms = sum(1 for t in tokens if t.kind == "term")
    if terms > MAX_TERMS:
        extra = [t for t in tokens if t.kind == "term"][MAX_TERMS]
        raise QueryError("too_many_terms", extra.start, extra.end, token="", max=MAX_TERMS)
    node = _Parser(tokens, text).parse()
    return node if keywords is None else _bind(node, keywords)


def _bind(node: object, keywords: object) -> object:
    if isinstance(node, Term):
        if (
            node.field
            and node.field not in keywords
            and (  # type: ignore[operator]
                not node.value or not node.field.replace("_", "").isalpha()
            )
        ):
            return Term("", ":", f"{node.typed}{node.op}{node.value}", "word", node.start, node.end)
        return node
    if isinstance(node, Not):
        return Not(_bind(node.item, keywords))
    if isinstance(node, And):
        return And(tuple(_bind(item, keywords) for item in node.items))
    if isinstance(node, Or):
        return Or(tuple(_bind(item, keywords) for item in node.items))
    return node


def terms_of(node: object) -> list[Term]:
    """Every term of a tree, left to right."""
    if isinstance(node, Term):
        return [node]
    if isinstance(node, Not):
        return terms_of(node.item)
    if isinstance(node, And | Or):
        return [t for item in node.items for t in terms_of(item)]
    return []
