"""The terminal game of ``sixtysix play``: a match against the computer, or a resumed seat,
played through the HTTP API with ``ask`` (``input``) and ``say`` (``print``).

A choice is a number from the list, a card to play (``TH``), an action (``play:TH``,
``meld:H``, ``close``), ``hint`` (the strong computer's advice; the hand is then marked as
hinted), ``say TEXT`` (a chat message to the table) or ``q`` to quit. The other seats' chat
messages are shown as ``[Name] text`` with the events, at the reader's next turn (a chat does
not end the wait for a move).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from api.clients.client import OUTCOME_UNKNOWN, ApiError, SeatSpec, SixtySixClient, View
from api.clients.terminal import (
    HINT_COMMAND,
    PROMPT,
    SAY_COMMAND,
    order_actions,
    parse_choice,
    render_actions,
    render_chat,
    render_event,
    render_hint,
    render_result,
    render_view,
    table_names,
)

#: Seconds a long-poll waits for another seat's move (the server's maximum).
POLL_WAIT = 30
#: Events whose line already tells the result of the match (or set).
RESULT_EVENTS = ("match_won", "set_won")

Ask = Callable[[str], str]
Say = Callable[[str], None]


def play_against_computer(
    client: SixtySixClient,
    variant: str,
    level: str,
    match_points: int | None,
    name: str,
    ask: Ask,
    say: Say,
    settings: Mapping[str, Any] | None = None,
    show_resume: bool = False,
) -> int:
    """Create a game of ``variant`` with the reader in seat 0 and computers of ``level`` in the
    others (table ``settings`` such as ``point_counter``), and play it to its end; 0 when it
    ended, 1 when the reader quit, 2 for an unknown variant. ``show_resume`` says the command
    that takes the game up again (for a server that outlives this process).
    """
    players = next((v["players"] for v in client.rules()["variants"] if v["name"] == variant),
                   None)
    if players is None:
        say(f"Unknown variant {variant!r}.")
        return 2
    seats: list[SeatSpec] = [{"kind": "human", "name": name}]
    seats += [{"kind": "computer", "level": level} for _ in range(players - 1)]
    game = client.create_game(variant, seats, match_points=match_points, settings=settings)
    me = game["seats"][0]
    say(f"Game {game['game_id']}: you are seat {me['seat']}.")
    if show_resume:
        say(f"To resume it later: sixtysix play --url {client.base_url} "
            f"--game={game['game_id']} --token={me['token']}")
    return 0 if play_match(client.with_token(me["token"]), game["game_id"], ask, say) else 1


def resume(client: SixtySixClient, game_id: str, ask: Ask, say: Say) -> int:
    """Take up the client's seat in a running game: the table as it is now (earlier events are
    not repeated), then on to the end; 0 when the match ended, 1 when the reader quit.
    """
    after = client.events(game_id, 0, limit=1)["last_seq"]
    say(f"Game {game_id}: resumed.")
    return 0 if play_match(client, game_id, ask, say, after) else 1


def play_match(client: SixtySixClient, game_id: str, ask: Ask, say: Say, after: int = 0) -> bool:
    """Play the client's seat until the match is over (True) or the reader quits (False).

    Shows every event after number ``after``, then the table and the numbered legal actions
    whenever it is the reader's turn; the result of the match is said once.
    """
    view = client.view(game_id)
    me = view["seat"]
    names = table_names(view["seats"], me)
    trump: str | None = view["trump_suit"]
    last_said = None
    while True:
        for event in client.all_events(game_id, after):
            trump = event["trump_suit"] if event["type"] == "hand_dealt" else trump
            line = render_event(event, me, names, trump)
            if event["type"] == "chat" and event["seat"] == me:
                line = None  # said when it was sent
            if line:
                say(line)
                last_said = event["type"]
            after = event["seq"]
        if view["status"] in ("match_over", "aborted"):
            if last_said not in RESULT_EVENTS:
                say(render_result(view, names))
            return True
        if not view["legal_actions"]:
            view = client.view(game_id, after_version=view["version"], wait=POLL_WAIT)
            continue
        say("")
        say(render_view(view, names))
        moved = _move(client, game_id, view, ask, say)
        if moved is None:
            return False
        view = moved


def _move(client: SixtySixClient, game_id: str, view: View, ask: Ask, say: Say) -> View | None:
    """Ask until a choice is accepted; the new view, or ``None`` when the reader quits."""
    choices = order_actions(view["legal_actions"], view["trump_suit"])
    say(render_actions(choices))
    while True:
        try:
            text = ask(PROMPT)
        except EOFError:
            text = "q"
        command = text.strip().lower()
        if command in ("q", "quit", "exit"):
            return None
        verb, _, said = text.strip().partition(" ")
        if verb.lower() == SAY_COMMAND:
            _say(client, game_id, said, say)
            continue
        if command == HINT_COMMAND:
            try:
                say(render_hint(client.hint(game_id)))
            except ApiError as exc:
                say(f"No hint: {exc.detail or exc.title}")
            continue
        action = parse_choice(text, choices)
        if action is None:
            say(f"Not a choice: {text.strip()!r}. Type a number from the list, a card (e.g. "
                "QH), an action (e.g. meld:H) or hint.")
            continue
        try:
            return client.act(game_id, action)
        except ApiError as exc:
            if exc.status == 409:
                say(f"Refused: {exc.detail}")
                continue
            say(_unsettled(exc, "your move"))
        reloaded = _reload(client, game_id, say)
        if reloaded is not None:
            return reloaded


def _unsettled(exc: ApiError, what: str) -> str:
    """What the reader is told of an error answer to ``what`` other than a refusal, after
    the client's retries: never that it failed when it may have been applied."""
    if exc.type == OUTCOME_UNKNOWN:
        return (f"The server could not confirm {what}: it may have been applied. Reloading "
                "the table.")
    return f"The server did not take {what} ({exc.detail or exc.title}). Reloading the table."


def _reload(client: SixtySixClient, game_id: str, say: Say) -> View | None:
    """The view as it is now, or ``None`` (said why) when the server cannot give it."""
    try:
        return client.view(game_id)
    except ApiError as exc:
        say(f"The table could not be reloaded ({exc.detail or exc.title}); choose again to "
            "retry, or q to quit.")
        return None


def _say(client: SixtySixClient, game_id: str, text: str, say: Say) -> None:
    """Send ``text`` as a chat message and show it; a refused one says why (a message of
    unknown outcome says it may have been sent)."""
    try:
        sent = client.chat(game_id, text)
    except ApiError as exc:
        if exc.type == OUTCOME_UNKNOWN:
            say("The server could not confirm your message: it may have been sent.")
        else:
            say(f"Not sent: {exc.detail or exc.title}")
        return
    say(render_chat(sent, sent["seat"], {}))
