"""Rules API: deck validation, ban lists, a game's rule set."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import generics, permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.models import Game
from config.api import ApiErrorOutSerializer
from config.fields import StrictCharField, StrictSlugField
from config.throttles import DeckCheckThrottle

from .deckinput import DeckInputError, deck_from_text, pool_warning
from .engine import Swap, UnknownCard, Violation
from .engine import default_registry as registry
from .messages import KeyedValidationError, render_key
from .models import BanList
from .selectors import banlist_list
from .services import ImportedList, banlist_import, cards_by_refs, deck_sideboard, deck_validate

MAX_LINES = 500


class CardCountSerializer(serializers.Serializer):
    card = StrictCharField(max_length=200, help_text="card database id, external id (passcode) or exact name")
    count = serializers.IntegerField(min_value=1, max_value=999)


class FormatSlugField(StrictSlugField):
    """A format slug in any case: "Advanced" from a form or a script names the same format as "advanced"."""

    def to_internal_value(self, data: Any) -> str:
        return super().to_internal_value(data).casefold()


class ValidateInputSerializer(serializers.Serializer):
    game = StrictSlugField()
    format = FormatSlugField()
    banlist = StrictCharField(required=False, allow_blank=True, help_text="ban list name")
    date = serializers.DateField(
        required=False,
        help_text="judge by the format's version and the ban list in force on this date (default today)",
    )
    sections = serializers.DictField(child=CardCountSerializer(many=True), required=False)
    hero = StrictCharField(required=False, allow_blank=True, max_length=200)
    co_heroes = serializers.ListField(
        child=StrictCharField(max_length=200), required=False, max_length=4,
        help_text="partner commanders beside the hero (with sections; a text list names them itself)",
    )  # fmt: skip
    pool = CardCountSerializer(
        many=True,
        required=False,
        help_text="the registered pool of a limited event (replaces a text 'pool' section)",
    )
    house_sideboard = serializers.BooleanField(
        required=False,
        default=False,
        help_text="judge as an event that allows a sideboard as a house rule: a format without one gains a "
        "side section (up to 15 cards, copy limits across deck + side)",
    )
    text = StrictCharField(required=False, max_length=200_000)
    ydk = StrictCharField(required=False, max_length=200_000)
    ydke = StrictCharField(required=False, max_length=200_000)
    exactly_one_of = ("sections", "text", "ydk", "ydke")  # the deck, given one way

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = [k for k in self.exactly_one_of if k in attrs]
        if len(given) != 1:
            raise serializers.ValidationError(
                _("Give the deck exactly one way: sections, text, ydk or ydke (got: %(given)s).")
                % {"given": ", ".join(given) or "—"}
            )
        lines = sum(len(v) for v in attrs.get("sections", {}).values()) + len(attrs.get("pool", []))
        if lines > MAX_LINES:
            raise serializers.ValidationError(
                _("too many card lines (%(lines)s); at most %(limit)s") % {"lines": lines, "limit": MAX_LINES}
            )
        return attrs


class ViolationSerializer(serializers.Serializer):
    code = StrictCharField()
    key = StrictCharField(help_text="which sentence says it (`code.variant`): the catalogue entry")
    params = serializers.DictField(
        help_text="the message's named parameters; data labels as {language: word} tables, a deck-list "
        "line's problem as {problem, params, line} (codes of decks/messages.py)"
    )
    message = StrictCharField(help_text="the sentence in the request's language")
    section = StrictCharField(allow_null=True)
    card = StrictCharField(allow_null=True)
    count = serializers.IntegerField(allow_null=True)
    limit = serializers.IntegerField(allow_null=True)


class RulesUsedSerializer(serializers.Serializer):
    game = StrictCharField()
    format = StrictCharField()
    version = StrictCharField()
    effective_date = serializers.DateField(allow_null=True)


class ReportSerializer(serializers.Serializer):
    legal = serializers.BooleanField()
    violations = ViolationSerializer(many=True)
    warnings = ViolationSerializer(many=True)
    rules = RulesUsedSerializer(required=False, help_text="the version of the format the deck was judged by")


def _lang() -> str:
    # Reports are worded by the catalogues (rules/messages.py): any language the site has, as active.
    return get_language() or "en"


def _game(slug: str) -> Game:
    game = Game.objects.filter(slug=slug).first()
    if game is None:
        raise serializers.ValidationError({"game": _("unknown game “%(game)s”") % {"game": slug}})
    return game


# A deck's maybeboard (decks/maybe.py) is never judged: a client may send its whole deck, considering cards
# included, and gets the verdict on what is played.
UNJUDGED_SECTIONS = frozenset({"maybe"})


def _resolve_lines(game: Game, data: dict[str, Any]) -> tuple[dict, Any, Any, list[UnknownCard]]:
    data = {
        **data,
        "sections": {s: v for s, v in data.get("sections", {}).items() if s not in UNJUDGED_SECTIONS},
    }
    refs = [line["card"] for lines in data.get("sections", {}).values() for line in lines]
    refs += [line["card"] for line in data.get("pool", [])]
    if data.get("hero"):
        refs.append(data["hero"])
    cards = cards_by_refs(game=game, refs=refs)
    unknown: list[UnknownCard] = []
    sections: dict[str, list] = {}
    for slug, lines in data.get("sections", {}).items():
        merged: dict[int, list] = {}
        for line in lines:
            card = cards.get(line["card"])
            if card is None:
                unknown.append(UnknownCard(section=slug, ref=line["card"], count=line["count"]))
                continue
            merged.setdefault(card.pk, [card, 0])[1] += line["count"]
        sections[slug] = [(c, n) for c, n in merged.values()]
    hero = None
    if data.get("hero"):
        hero = cards.get(data["hero"])
        if hero is None:
            unknown.append(UnknownCard(section="hero", ref=data["hero"], count=1))
    pool = None
    if "pool" in data:
        pool = [(cards[line["card"]], line["count"]) for line in data["pool"] if line["card"] in cards]
    return sections, hero, pool, unknown


def _co_heroes(game: Game, data: dict[str, Any], unknown: list[UnknownCard]) -> list[Any]:
    """The partner commanders given beside the hero; one no card matches is an unknown hero line."""
    refs = data.get("co_heroes") or []
    cards = cards_by_refs(game=game, refs=refs)
    unknown += [UnknownCard(section="hero", ref=ref, count=1) for ref in refs if ref not in cards]
    return [cards[ref] for ref in refs if ref in cards]


def _unknown_pool_lines(data: dict[str, Any], game: Game) -> list[dict[str, Any]]:
    """Pool lines no card matched."""
    cards_found = cards_by_refs(game=game, refs=[line["card"] for line in data.get("pool", [])])
    return [line for line in data.get("pool", []) if line["card"] not in cards_found]


def _unknown_pool_warnings(data: dict[str, Any], game: Game) -> list[Violation]:
    """Pool lines no card matched: the deck is still judged, but the player must know the pool is short."""
    return [pool_warning(line["card"], line["count"]) for line in _unknown_pool_lines(data, game)]


class ValidateDeckView(APIView):
    """Validate a deck against a game format, a ban list and the hero's restrictions."""

    permission_classes = [permissions.AllowAny]  # validation reads only; anyone may check a deck
    throttle_classes = [DeckCheckThrottle]  # a whole list parsed and resolved per request

    @extend_schema(
        request=ValidateInputSerializer,
        responses={200: ReportSerializer, 422: ApiErrorOutSerializer, 429: ApiErrorOutSerializer},
        tags=["rules"],
    )
    def post(self, request: Any) -> Response:
        ser = ValidateInputSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        game = _game(data["game"])
        try:
            extra_heroes: list = []
            warnings: list[Violation] = []
            if "sections" in data:
                sections, hero, pool, unknown = _resolve_lines(game, data)
                extra: list = []
                extra_heroes = _co_heroes(game, data, unknown)
            else:
                kind = next(k for k in ("text", "ydk", "ydke") if k in data)
                parsed = deck_from_text(
                    game=game,
                    format_slug=data["format"],
                    data=data[kind],
                    fmt=None if kind == "text" else kind,
                    house_sideboard=data["house_sideboard"],
                )
                sections, hero, unknown, extra = (
                    parsed.sections,
                    parsed.hero,
                    parsed.unknown,
                    parsed.violations,
                )
                extra_heroes = parsed.extra_heroes
                pool = _resolve_lines(game, data)[2] if "pool" in data else parsed.pool
                warnings = [] if "pool" in data else parsed.warnings
            report = deck_validate(
                game=game, format_slug=data["format"], sections=sections, hero=hero, pool=pool,
                banlist=data.get("banlist") or None, on_date=data.get("date"), unknown=unknown, extra_violations=extra,
                extra_heroes=extra_heroes, house_sideboard=data["house_sideboard"],
            )  # fmt: skip
            report.warnings.extend(warnings)
        # The request matched the schema; a format, ban list or list this game cannot use is 422 (README
        # "Errors"), the status schemathesis.toml admits for schema-valid requests.
        except DeckInputError as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_422_UNPROCESSABLE_ENTITY)
        except DjangoValidationError as exc:
            return Response({"detail": "; ".join(exc.messages)}, status=status.HTTP_422_UNPROCESSABLE_ENTITY)
        if "pool" in data:
            report.warnings.extend(_unknown_pool_warnings(data, game))
        return Response(report.to_dict(_lang()))


class SwapSerializer(serializers.Serializer):
    section = StrictSlugField()
    out = StrictCharField(required=False, allow_null=True, max_length=200)
    into = StrictCharField(required=False, allow_null=True, max_length=200)
    count = serializers.IntegerField(min_value=1, max_value=99, default=1)


class SideboardInputSerializer(serializers.Serializer):
    game = StrictSlugField()
    format = FormatSlugField()
    banlist = StrictCharField(required=False, allow_blank=True)
    date = serializers.DateField(required=False, help_text="the format's version and ban list in force then")
    sections = serializers.DictField(child=CardCountSerializer(many=True))
    hero = StrictCharField(required=False, allow_blank=True)
    pool = CardCountSerializer(
        many=True,
        required=False,
        help_text="the registered pool of a limited event: the additional set is the pool minus the decks "
        "(g001 1.5.2)",
    )
    house_sideboard = serializers.BooleanField(
        required=False,
        default=False,
        help_text="judge as an event that allows a sideboard as a house rule: a format without one gains a "
        "side section (up to 15 cards, copy limits across deck + side)",
    )
    swaps = SwapSerializer(many=True)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        lines = sum(len(v) for v in attrs.get("sections", {}).values()) + len(attrs.get("pool", []))
        if lines > MAX_LINES:
            raise serializers.ValidationError(
                _("too many card lines (%(lines)s); at most %(limit)s") % {"lines": lines, "limit": MAX_LINES}
            )
        return attrs


class SideboardView(APIView):
    """Apply sideboard swaps between games to a deck and re-validate the result."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [DeckCheckThrottle]

    @extend_schema(
        request=SideboardInputSerializer,
        responses={200: dict, 422: ApiErrorOutSerializer, 429: ApiErrorOutSerializer},
        tags=["rules"],
    )
    def post(self, request: Any) -> Response:
        ser = SideboardInputSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        game = _game(data["game"])
        sections, hero, pool, unknown = _resolve_lines(game, data)
        refs = [u.ref for u in unknown] + [line["card"] for line in _unknown_pool_lines(data, game)]
        if refs:
            return Response(
                {"detail": _("unknown cards: %(cards)s") % {"cards": ", ".join(refs)}},
                status=status.HTTP_422_UNPROCESSABLE_ENTITY,
            )
        swaps = [
            Swap(section=s["section"], out=s.get("out"), into=s.get("into"), count=s["count"])
            for s in data["swaps"]
        ]
        try:
            deck, report = deck_sideboard(game=game, format_slug=data["format"], sections=sections, swaps=swaps,
                                          hero=hero, banlist=data.get("banlist") or None, on_date=data.get("date"),
                                          pool=pool, house_sideboard=data["house_sideboard"])  # fmt: skip
        except DjangoValidationError as exc:
            return Response({"detail": "; ".join(exc.messages)}, status=status.HTTP_422_UNPROCESSABLE_ENTITY)
        return Response(
            {
                "sections": {k: [{"card": ref, "count": n} for ref, n in v] for k, v in deck.items()},
                "report": report.to_dict(_lang()),
            }
        )


class BanListSerializer(serializers.ModelSerializer):
    game = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    entry_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = BanList
        fields = ["id", "game", "name", "effective_date", "region", "description", "is_whitelist", "source",
                  "created_at", "entry_count"]  # fmt: skip


class BanListEntrySerializer(serializers.Serializer):
    external_id = StrictCharField()
    name = StrictCharField()
    identity = StrictCharField()
    card = serializers.IntegerField(source="card_id", allow_null=True)
    limit = serializers.IntegerField()


class BanListDetailSerializer(BanListSerializer):
    entries = BanListEntrySerializer(many=True, read_only=True)

    class Meta(BanListSerializer.Meta):
        fields = [*BanListSerializer.Meta.fields, "entries"]


@extend_schema(parameters=[OpenApiParameter("game", str, description="game slug")], tags=["rules"])
class BanListListView(generics.ListAPIView):
    serializer_class = BanListSerializer
    filter_backends: list = []

    def get_queryset(self) -> Any:
        return banlist_list(game=self.request.query_params.get("game") or None)


@extend_schema(tags=["rules"])
class BanListDetailView(generics.RetrieveAPIView):
    serializer_class = BanListDetailSerializer

    def get_queryset(self) -> Any:
        return banlist_list().prefetch_related("entries")


class BanListIssueSerializer(serializers.Serializer):
    """A line of the file read leniently or skipped (as EDOPro does), or why the file was refused."""

    key = StrictCharField(help_text="which sentence says it: an entry of rules/banlist_messages.py")
    params = serializers.DictField(help_text="the message's named parameters (``line`` among them)")
    message = StrictCharField(help_text="the sentence in the request's language")


def _issue(key: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"key": key, "params": params, "message": render_key(key, params)}


class BanListImportedSerializer(BanListSerializer):
    """An imported list: the list, whether this import created it, and the warnings about its lines."""

    created = serializers.SerializerMethodField()
    warnings = serializers.SerializerMethodField()

    class Meta(BanListSerializer.Meta):
        fields = [*BanListSerializer.Meta.fields, "created", "warnings"]

    def _imported(self, banlist: BanList) -> ImportedList:
        return self.context["imported"][banlist.pk]

    def get_created(self, banlist: BanList) -> bool:
        return self._imported(banlist).created

    @extend_schema_field(BanListIssueSerializer(many=True))
    def get_warnings(self, banlist: BanList) -> list[dict[str, Any]]:
        return [_issue(w.key, w.params) for w in self._imported(banlist).warnings]


class BanListRefusalSerializer(ApiErrorOutSerializer):
    """A 400 for a bad request field; a 422 for a refused file (well-formed text the readers cannot take;
    nothing was imported), whose ``detail`` names the line or the list in the request's language, with its
    ``key`` and ``params``."""

    key = StrictCharField(
        required=False, help_text="a refused file: which sentence says it (rules/banlist_messages.py)"
    )
    params = serializers.DictField(
        required=False, help_text="a refused file: the message's named parameters (``line`` among them)"
    )


class BanListImportSerializer(serializers.Serializer):
    game = StrictSlugField()
    text = StrictCharField(max_length=2_000_000, help_text="EDOPro lflist.conf content")
    date = serializers.DateField(required=False, help_text="effective date of every list in the file")
    dates = serializers.DictField(
        child=serializers.DateField(), required=False, help_text="list name → its effective date"
    )
    region = StrictCharField(required=False, max_length=40)
    source = StrictCharField(required=False, max_length=255, default="api")


class BanListImportView(APIView):
    permission_classes = [permissions.IsAdminUser]

    @extend_schema(
        request=BanListImportSerializer,
        responses={
            201: BanListImportedSerializer(many=True),
            200: BanListImportedSerializer(many=True),
            400: BanListRefusalSerializer,
            422: BanListRefusalSerializer,
        },
        tags=["rules"],
    )
    def post(self, request: Any) -> Response:
        ser = BanListImportSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        try:
            results = banlist_import(
                game=_game(data["game"]), text=data["text"], source=data["source"],
                effective_date=data.get("date"), region=data.get("region"), dates=data.get("dates"),
            )  # fmt: skip
        except KeyedValidationError as exc:
            # The file's line or the list at fault, as a key with params and in the requester's language.
            body = {"detail": exc.messages[0], "key": exc.message_key, "params": exc.message_params}
            # The text is what the schema allows; what it says cannot be read (README "Errors": 422).
            return Response(BanListRefusalSerializer(body).data, status=status.HTTP_422_UNPROCESSABLE_ENTITY)
        imported = {r.banlist.pk: r for r in results}
        lists = banlist_list().filter(pk__in=imported)
        body = BanListImportedSerializer(lists, many=True, context={"imported": imported}).data
        created = any(r.created for r in results)
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


def _size(rule: Any) -> dict[str, Any]:
    return {
        "exact": rule.exact,
        "min": rule.min,
        "max": rule.max,
        "allowed": list(rule.allowed or []) or None,
    }


class GameRulesView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: dict}, tags=["rules"])
    def get(self, request: Any, slug: str) -> Response:
        get_object_or_404(Game, slug=slug)
        try:
            game = registry().game(slug)
        except KeyError:
            return Response({"detail": _("no rule set for “%(game)s”") % {"game": slug}}, status=404)
        return Response(
            {
                "slug": game.slug, "name": game.name, "name_ru": game.name_ru, "version": game.version,
                "effective_date": game.effective_date, "has_decks": game.has_decks,
                "min_players": game.min_players, "max_players": game.max_players,
                "opening_hand": game.opening_hand, "first_player": game.first_player, "sideboard": game.sideboard,
                "match_format": game.match_format, "pod_sizes": list(game.pod_sizes), "tiebreakers": game.tiebreakers,
                "formats": [
                    {
                        "slug": f.slug, "name": f.name, "name_ru": f.name_ru, "description": f.description,
                        "hero": f.hero is not None, "pool": f.pool_scope is not None,
                        "sections": [
                            {"slug": s.slug, "name": s.name, "name_ru": s.name_ru, "size": _size(s.size),
                             "accept": s.accept_spec, "counted": s.counted, "provisional": s.provisional}
                            for s in f.sections
                        ],
                        "copy_limits": [
                            {"key": c.key, "scope": list(c.scope), "max": c.max, "filter": c.filter_spec}
                            for c in f.copy_limits
                        ],
                    }
                    for f in game.formats.values()
                ],
            }
        )  # fmt: skip
