import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_wsgi_application()

# Unchanged live polls (hundreds a second on event day), draft polls (a thousand a second while 2,000 phones
# draft: unchanged, or the new box after a pass) and the draft queue's picks are answered before Django's
# middleware, and static files before all of them: none waits on Django's request machinery while results
# or picks pour in.
from config.static_first import StaticFirst  # noqa: E402 - needs the settings configured above
from limited.wsgi import DraftPolls  # noqa: E402 - needs the settings configured above
from limited.wsgi_pick import QueuedPicks  # noqa: E402 - needs the settings configured above
from tournaments.live.wsgi import LivePolls  # noqa: E402 - needs the settings configured above

application = StaticFirst(LivePolls(DraftPolls(QueuedPicks(django_application))))
