"""rules.demo.load imports ban lists once, however often it runs."""

from __future__ import annotations

from io import StringIO

import pytest
from django.test import override_settings

from rules import demo
from rules.models import BanList

pytestmark = pytest.mark.django_db


def test_demo_falls_back_to_the_shipped_sample_and_is_idempotent(games, tmp_path):
    with override_settings(SHARED_DATA_DIR=tmp_path):
        demo.load(StringIO())
        demo.load(StringIO())
    assert list(BanList.objects.values_list("name", flat=True)) == ["2024.01 Sample TCG"]
    assert BanList.objects.get().entries.get(external_id="55144522").limit == 0


def test_demo_loads_the_shared_lists_when_present(games, shared_data):
    with override_settings(SHARED_DATA_DIR=shared_data):
        demo.load(StringIO())
        demo.load(StringIO())
    assert BanList.objects.count() == 5
