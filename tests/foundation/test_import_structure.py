"""The product's import structure: no two modules import each other, directly or through others.

Circles make a module impossible to read (or load) on its own, and they are how "pages import each
other's private helpers" starts. Every import counts — at module level and inside functions (a lazy import
hides a circle from Python, not from the reader). ``from package import name`` is an edge to the submodule
when ``name`` is one, else to the package's ``__init__``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (
    "accounts",
    "cards",
    "cardsearch",
    "collection",
    "config",
    "decks",
    "games",
    "idempotency",
    "results",
    "limited",
    "rules",
    "seasons",
    "tournaments",
    "venue",
)
# Migrations are generated and import nothing of ours but models; tests and benches are not the product.
SKIP_PARTS = {"migrations", "__pycache__"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def product_modules() -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if SKIP_PARTS.isdisjoint(path.relative_to(ROOT).parts):
                modules[_module_name(path)] = path
    return modules


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def parse(path: Path) -> ast.Module:
    """``ast.parse`` of a source file, asked again when CPython 3.11's AST converter trips over its own
    recursion counter (gh-106905: "AST constructor recursion depth mismatch", a global counter that another
    thread parsing at the same moment — a live-server thread, pytest's assertion rewriter — can leave
    unbalanced). The file is the same each time; only the interpreter's bug is retried."""
    source = path.read_text(encoding="utf-8")
    for _ in range(2):
        try:
            return ast.parse(source, str(path))
        except SystemError:
            continue
    return ast.parse(source, str(path))


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(parse(path)):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(name, path, node)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in modules else base)
            for target in targets:
                # "import a.b.c" names the deepest module of ours it reaches.
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    return circles


def test_it_finds_a_circle_when_there_is_one() -> None:
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []


def test_it_has_no_import_circle_anywhere_in_the_product() -> None:
    circles = import_circles(import_graph(product_modules()))
    assert circles == [], "import circles: " + "; ".join(" <-> ".join(c) for c in circles)


ENGINES = ("cardsearch", "games", "rules.engine", "seasons.engine", "tournaments.engine")
# Pure ground-floor packages every engine may stand on: the game registry and the card search language
# (FILTER shares its evaluator).
PURE_GROUND = {"cardsearch", "games"}


def _imports_of(path: Path, module: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(parse(path)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add(_absolute(module, path, node))
    return names


def test_it_keeps_the_engines_pure_python() -> None:
    """The engines import the standard library, themselves and the pure ground floor (``games``, the
    registry; ``cardsearch``, the search language) only: no Django, no app of ours, so they run (and are
    tested and benchmarked) without settings or a database."""
    modules = product_modules()
    ours = set(PACKAGES)
    offending = []
    for engine in ENGINES:
        for name, path in modules.items():
            if name != engine and not name.startswith(engine + "."):
                continue
            for imported in _imports_of(path, name):
                top = imported.split(".")[0]
                inside = imported == engine or imported.startswith(engine + ".") or top in PURE_GROUND
                if top == "django" or top in {"rest_framework", "celery"} or (top in ours and not inside):
                    offending.append(f"{name} imports {imported}")
    assert offending == []


def test_it_keeps_every_tournaments_module_under_600_lines() -> None:
    """One screen of intent per module; the pairing matcher (one algorithm, best read whole) is the exception."""
    exempt = {"tournaments.engine.pairing._matching"}
    long = {
        name: n
        for name, path in product_modules().items()
        if name.startswith("tournaments")
        and name not in exempt
        and (n := len(path.read_text(encoding="utf-8").splitlines())) > 600
    }
    assert long == {}


# The floors of the product, lowest first. A module imports its own floor and the floors below it, never a
# higher one — at the top of the file or inside a function: what a lower app needs from a higher one is
# handed down in the higher app's ``AppConfig.ready()`` or through signals (see rules/deckinput.py,
# cards/facts.py). A module belongs to the floor of its longest listed prefix.
FLOORS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # The game registry (rule sets as data) and the card search language it compiles FILTERs with: pure
    # Python (test_it_keeps_the_engines_pure_python).
    ("ground", ("cardsearch", "games")),
    # What every app may use: accounts (the user), request idempotency, config's helpers for pages and the
    # API (error shapes, path ids, strict text fields, strict pagination, parsers, the client's address,
    # throttles, the PWA, lookups prepared once per process, the sessions' one statement) and the venue's network helpers.
    (
        "base",
        (
            "accounts",
            "idempotency",
            "config.api",
            "config.converters",
            "config.fields",
            "config.pagination",
            "config.parsers",
            "config.client",
            "config.prepared",
            "config.pwa",
            "config.sessions",
            "config.throttles",
            "venue.lan",
            "venue.addresses",
            "venue.tls",
        ),
    ),
    ("cards", ("cards",)),
    ("rules", ("rules",)),
    ("decks", ("decks",)),
    # A player's collection: owned cards allocated to their built decks.
    ("collection", ("collection",)),
    ("tournaments", ("tournaments",)),
    # Limited events (sealed, draft): pools and packs on top of an event.
    ("limited", ("limited",)),
    ("seasons", ("seasons",)),
    # Results documents, metagame and publication after an event, over its standings and series.
    ("results", ("results",)),
    # What ties the apps together: config (settings, URLs, middleware, the WSGI and Celery entry points,
    # the site-wide pages), the demo loader of every app, and the venue (it snapshots the database on
    # tournaments' signals).
    ("site", ("config", "accounts.management.commands.load_demo", "venue")),
)


def floor_of(module: str) -> int:
    """The index in FLOORS of the module's longest listed prefix."""
    best, length = -1, -1
    for index, (_, prefixes) in enumerate(FLOORS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > length:
                best, length = index, len(prefix)
    if best < 0:
        raise KeyError(f"{module} is on no floor: add its package to FLOORS")
    return best


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{module} ({FLOORS[floor_of(module)][0]}) imports {target} ({FLOORS[floor_of(target)][0]})"
        for module, targets in graph.items()
        for target in targets
        if floor_of(target) > floor_of(module)
    )


def test_it_puts_every_module_on_its_floor() -> None:
    assert floor_of("games.registry") == 0
    assert floor_of("config.api") < floor_of("cards.views") < floor_of("rules.api") < floor_of("decks.api")
    assert floor_of("decks.api") < floor_of("tournaments.api.events") < floor_of("seasons.services")
    assert floor_of("venue.addresses") < floor_of("cards.views") < floor_of("venue.snapshots")
    assert floor_of("accounts.models") < floor_of("accounts.management.commands.load_demo")
    for module in product_modules():
        floor_of(module)  # raises for a package nobody placed


def test_it_finds_an_import_of_a_higher_floor() -> None:
    assert upward_imports({"cards.views": {"decks.gamerules"}, "decks.api": {"cards.models"}}) == [
        "cards.views (cards) imports decks.gamerules (decks)"
    ]


def test_no_module_imports_a_higher_floor_at_the_top_or_inside_a_function() -> None:
    """games → cards → rules → decks → tournaments → seasons, one way (import_graph reads every import)."""
    upward = upward_imports(import_graph(product_modules()))
    assert upward == [], "imports of a higher floor:\n" + "\n".join(upward)


# Imports of another app that stay inside a function, each for a reason the module level cannot meet.
LAZY_BETWEEN_APPS = {
    # The Celery app is created before Django's settings and apps are loaded.
    ("config.celery", "cards.services"),
}


def _function_imports_of_other_apps(modules: dict[str, Path]) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for name, path in modules.items():
        if path.name == "apps.py":
            continue  # AppConfig.ready(): where Django says app-loading hooks go
        for function in ast.walk(parse(path)):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Import):
                    targets = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom):
                    targets = [_absolute(name, path, node)]
                else:
                    continue
                for target in targets:
                    app = target.split(".")[0]
                    if app in PACKAGES and app != name.split(".")[0]:
                        found.add((name, target))
    return found


def test_imports_between_apps_are_at_the_top_of_the_module() -> None:
    """A lazy import between apps hid a circle once; with the floors there is none to hide, so the reader
    sees every app a module stands on in its first lines. Only AppConfig.ready() and the listed few remain."""
    assert _function_imports_of_other_apps(product_modules()) == LAZY_BETWEEN_APPS


# Django's own files of an app stay at its top; everything else of tournaments/ lives in a package named
# for what it holds (engine/, live/, views/, api/, services/, reads/, pairings/, printables/, models/).
TOURNAMENTS_APP_FILES = {
    "__init__",
    "admin",
    "api_urls",
    "apps",
    "demo",
    "permissions",
    "serializers",
    "signals",
    "tasks",
    "urls",
}


def test_tournaments_has_no_loose_module_beside_its_packages() -> None:
    loose = {path.stem for path in (ROOT / "tournaments").glob("*.py")} - TOURNAMENTS_APP_FILES
    assert loose == set(), (
        f"modules at the top of tournaments/: put them in the package they belong to: {loose}"
    )
