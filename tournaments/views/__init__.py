"""Tournament pages, by who opens them:

- ``event`` — everyone: the list of events, an event's page, standings, the bracket, deck lists;
- ``player`` — players: joining by code, registering a deck or pool, check-in, "My event" on a phone;
- ``matches`` — a match's players and the organizers: games, results, confirms, disputes, sideboarding;
- ``organizer`` — organizers: setting up an event, adding players, check-in, the round dashboard, the clock;
- ``actions`` — the organizer's irreversible steps, each behind one confirmation page;
- ``projector`` — pages many watch at once: projector, players' pairings, the public round table;
- ``printing`` — printables and the join poster;
- ``helpers`` — what they share (running a service, safe redirects, form numbers, the join QR code).

Views parse input, call one service and answer; rules live in ``tournaments/services``.
"""
