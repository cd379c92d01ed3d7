"""`make run` (load_demo) prints the demo organizer's password only while it works: after `make venue` gave the
organizer a password of its own it prints that one (from the venue's file), else how to set a new one."""

from __future__ import annotations

import pytest

from accounts.management.commands.load_demo import DEMO_PASSWORD, Command
from accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer_account(settings, tmp_path):  # type: ignore[no-untyped-def]
    settings.VENUE_DIR = tmp_path
    return User.objects.create_user("organizer", password=DEMO_PASSWORD, is_organizer=True)


def test_it_prints_the_published_password_while_it_works(organizer_account):
    assert "with password 'deckhall-demo'" in Command()._log_in_words(organizer_account)


def test_after_the_venue_changed_it_it_prints_the_venues_password(organizer_account, tmp_path):
    organizer_account.set_password("venue-secret-1")
    (tmp_path / "organizer-password").write_text("venue-secret-1\n")
    words = Command()._log_in_words(organizer_account)
    assert "deckhall-demo" not in words and "venue-secret-1" in words


def test_a_password_changed_by_hand_is_not_printed(organizer_account, tmp_path):
    organizer_account.set_password("mine-only")
    (tmp_path / "organizer-password").write_text("an-older-venue-password\n")
    words = Command()._log_in_words(organizer_account)
    assert "deckhall-demo" not in words and "changepassword organizer" in words
