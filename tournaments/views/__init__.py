"""Tournament pages, by who opens them:

- ``event`` — everyone: the list of events, an event's page, standings, the bracket, deck lists;
- ``player`` — players: joining by code, registering a deck or pool, check-in, "My event" on a phone;
- ``matches`` — a match's players and the organizers: games, results, confirms, disputes, sideboarding;
- ``organizer`` — organizers: setting up an event, adding players, check-in, the round dashboard, the clock;
- ``dashboard`` — the organizer's live pages (round dashboard, check-in, event page): their fragment, polled;
- ``actions`` — the organizer's irreversible steps (mending a match and penalties too), each behind one
  confirmation page;
- ``judging`` — the penalty log page, a table's extra time, judge calls, the clock's pause / add time, fixed
  tables;
- ``projector`` — pages many watch at once: projector, players' pairings, the public round table;
- ``printing`` — printables and the join poster;
- ``helpers`` — what they share (running a service, safe redirects, form numbers, the join QR code).

Views parse input, call one service and answer; rules live in ``tournaments/services``.
"""
