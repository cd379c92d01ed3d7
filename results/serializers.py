from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.fields import StrictCharField, StrictRegexField

from .models import Webhook


class ArchetypeRefSerializer(serializers.Serializer):
    name = StrictCharField(help_text="empty: no rule caught the deck (or two did): in review")
    rule = StrictCharField(help_text="which rule matched, e.g. the set code and its share of the deck")


class DecklistEntrySerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = StrictCharField()
    archetype = ArchetypeRefSerializer(allow_null=True)
    list = serializers.JSONField(allow_null=True, help_text="the registered list, when you may see it now")
    list_private = serializers.BooleanField(help_text="the stage opens lists but the player did not consent")


class DecklistsOutSerializer(serializers.Serializer):
    stage = StrictCharField()
    timeline = serializers.DictField(child=StrictCharField())
    players = DecklistEntrySerializer(many=True)


class MetagameArchetypeSerializer(serializers.Serializer):
    name = StrictCharField()
    count = serializers.IntegerField()
    share = serializers.FloatField()
    cut_count = serializers.IntegerField()
    match_win_rate = serializers.FloatField(allow_null=True, help_text="(wins + draws/2) / matches")
    matches = serializers.IntegerField()


class MatrixCellSerializer(serializers.Serializer):
    archetype = StrictCharField()
    opponent = StrictCharField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    matches = serializers.IntegerField(help_text="the sample: small counts mean little")


class MetagameEntrySerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = StrictCharField()
    archetype = ArchetypeRefSerializer()
    list_visible = serializers.BooleanField(help_text="you may open this player's list now")
    list_private = serializers.BooleanField(help_text="the stage opens lists but the player did not consent")


class TopCardSerializer(serializers.Serializer):
    name = StrictCharField()
    copies = serializers.IntegerField()
    decks = serializers.IntegerField()


class MetagameOutSerializer(serializers.Serializer):
    stage = StrictCharField()
    players = serializers.IntegerField()
    top_cards = TopCardSerializer(many=True, help_text="main/extra decks, over the lists you may read now")
    lists_counted = serializers.IntegerField()
    archetypes = MetagameArchetypeSerializer(many=True)
    matrix = MatrixCellSerializer(many=True)
    entries = MetagameEntrySerializer(many=True)


class ResultsDocumentSerializer(serializers.Serializer):
    """Documented by its JSON Schema (results/schemas/results-v1.schema.json); the parts named here."""

    version = serializers.IntegerField()
    generated_at = serializers.DateTimeField()
    tournament = serializers.DictField()
    standings = serializers.ListField(child=serializers.DictField())
    rounds = serializers.ListField(child=serializers.DictField())
    players = serializers.ListField(child=serializers.DictField())


class WebhookInSerializer(serializers.Serializer):
    # What results/webhooks.py webhook_create checks, stated in the schema; an address on a private network
    # (not a schema matter) is refused there.
    # The scheme, then a first character of the host that is no separator, control or white space, spelled
    # out: the schema's pattern is read by ECMAScript's rules, whose \s is not Python's (U+001C is white space
    # to Python only, U+FEFF to ECMAScript only), so the two must not differ. No NUL anywhere (every text
    # field refuses one).
    url = StrictRegexField(
        r"^https?://[^/?#\x00-\x20\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff][^\x00]*$",
        max_length=500,
    )
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=list(Webhook.EVENTS)), min_length=1, max_length=10,
        help_text="round.paired, results.changed, event.finished",
    )  # fmt: skip
    secret = StrictCharField(
        min_length=16,
        max_length=200,
        trim_whitespace=False,
        help_text="16 to 200 characters; signs, never sent",
    )


class WebhookOutSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    url = StrictCharField()
    events = serializers.ListField(child=StrictCharField())
    created_at = serializers.DateTimeField()


# What published_event_receive (results/publishing.py) requires of a document, stated in the schema; the rest
# of it is stored as sent.
@extend_schema_field(
    {
        "type": "object",
        "required": ["version", "tournament"],
        "properties": {
            "version": {"type": "integer", "enum": [1]},
            "tournament": {
                "type": "object",
                "required": ["id", "status"],
                "properties": {
                    "id": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
                    "status": {"type": "string", "enum": ["finished"]},
                },
            },
        },
    }
)
class ResultsDocumentField(serializers.JSONField):
    pass


class PublishInSerializer(serializers.Serializer):
    origin = StrictCharField(max_length=64, help_text="the venue install's stable id")
    document = ResultsDocumentField(help_text="the results document (version 1) as the public saw it")


class PublishedOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    changed = serializers.BooleanField()
    url = StrictCharField()


class MetagameRangeOutSerializer(serializers.Serializer):
    events = serializers.IntegerField()
    players = serializers.IntegerField()
    archetypes = MetagameArchetypeSerializer(many=True)
    matrix = MatrixCellSerializer(many=True)
    top_cards = TopCardSerializer(many=True)
    lists_counted = serializers.IntegerField()
    entries = MetagameEntrySerializer(many=True)
