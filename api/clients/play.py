"""The terminal game of ``sixtysix play``: a match against the computer, or a resumed seat,
played through the HTTP API with ``ask`` (``input``) and ``say`` (``print``).

A choice is a number from the list, a card to play (``TH``), an action (``play:TH``,
``meld:H``, ``close``), ``hint`` (the strong computer's advice; the hand is then marked as
hinted), ``say TEXT`` (a chat message to the table) or ``q`` to quit. The other seats' chat
messages are shown as ``[Name] text`` with the events, at the reader's next turn (a chat does
not end the wait for a move). Tausendeins is spoken of by :mod:`api.clients.terminal1001`
(its commands: ``bid N``, ``pass``, ``musik N``, ``discard C C``, ``raise [N]``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from api.clients import terminal1001
from api.clients.client import (
    OUTCOME_UNKNOWN,
    ActionDict,
    ApiError,
    SeatSpec,
    SixtySixClient,
    View,
)
from api.clients.console import Quit, Wait, blocking, is_quit
from api.clients.terminal import (
    HINT_COMMAND,
    PROMPT,
    SAY_COMMAND,
    Names,
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
#: Events whose line already tells the result of the match (or set, or Tausendeins game).
RESULT_EVENTS = ("match_won", "set_won", "game_won")

Ask = Callable[[str], str]
Say = Callable[[str], None]
Event = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Texts:
    """How the terminal speaks of one game: the table, an event (with the trump before it),
    the result, the numbered choices and their listing, a typed choice, the trump after an
    event, the prompt, the help for a choice not understood and what a hint's values are."""

    view: Callable[[View, Names], str]
    event: Callable[[Event, int | None, Names, str | None], str | None]
    result: Callable[[View, Names], str]
    choices: Callable[[View], list[ActionDict]]
    listing: Callable[[Sequence[ActionDict], View], str]
    parse: Callable[[str, Sequence[ActionDict], View], ActionDict | None]
    trump_after: Callable[[Event, str | None], str | None]
    prompt: str
    help: str
    #: What a hint's values are.
    hint_values: str


SIXTY_SIX_TEXTS = Texts(
    view=render_view, event=render_event, result=render_result,
    choices=lambda view: order_actions(view["legal_actions"], view["trump_suit"]),
    listing=lambda choices, view: render_actions(choices),
    parse=lambda text, choices, view: parse_choice(text, choices),
    trump_after=lambda event, trump: event["trump_suit"] if event["type"] == "hand_dealt"
    else trump,
    prompt=PROMPT,
    help="Type a number from the list, a card (e.g. QH), an action (e.g. meld:H) or hint.",
    hint_values="expected game points")
T1001_TEXTS = Texts(
    view=terminal1001.render_view, event=terminal1001.render_event,
    result=terminal1001.render_result,
    choices=lambda view: terminal1001.numbered_choices(view["legal_actions"],
                                                       view["trump_suit"]),
    listing=lambda choices, view: terminal1001.render_actions(choices, view["legal_actions"]),
    parse=lambda text, choices, view: terminal1001.parse_choice(text, choices,
                                                                view["legal_actions"]),
    trump_after=terminal1001.trump_after, prompt=terminal1001.PROMPT, help=terminal1001.HELP,
    hint_values=terminal1001.HINT_VALUES)


#: Each game's texts, by the ``game`` of its views (the variant's name for a server that
#: names no game); any other game's: Sixty-Six's.
TEXTS_BY_GAME: dict[str, Texts] = {"sixty-six": SIXTY_SIX_TEXTS, "tausendeins": T1001_TEXTS}


def texts_of(view: View) -> Texts:
    """The texts of the view's game."""
    return TEXTS_BY_GAME.get(str(view.get("game", view.get("variant"))), SIXTY_SIX_TEXTS)


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
    rules: Mapping[str, Any] | None = None,
    wait: Wait = blocking,
) -> int:
    """Create a game of ``variant`` with the reader in seat 0 and computers of ``level`` in the
    others (table ``settings`` such as ``point_counter``; rule options ``rules``), and play it
    to its end; 0 when it ended, 1 when the reader quit, 2 for an unknown variant.
    ``show_resume`` says the command that takes the game up again (for a server that outlives
    this process), at the start and on quitting; ``wait`` as :func:`play_match`'s.
    """
    players = next((v["players"] for v in client.rules()["variants"] if v["name"] == variant),
                   None)
    if players is None:
        say(f"Unknown variant {variant!r}.")
        return 2
    seats: list[SeatSpec] = [{"kind": "human", "name": name}]
    seats += [{"kind": "computer", "level": level} for _ in range(players - 1)]
    game = client.create_game(variant, seats, rules=rules, match_points=match_points,
                              settings=settings)
    me = game["seats"][0]
    say(f"Game {game['game_id']}: you are seat {me['seat']}.")
    again = (f"sixtysix play --url {client.base_url} --game={game['game_id']} "
             f"--token={me['token']}")
    if show_resume:
        say(f"To resume it later: {again}")
    if play_match(client.with_token(me["token"]), game["game_id"], ask, say, wait=wait):
        return 0
    if show_resume:
        say(f"You left the game; it waits on the server. To resume it: {again}")
    return 1


def resume(client: SixtySixClient, game_id: str, ask: Ask, say: Say, wait: Wait = blocking
           ) -> int:
    """Take up the client's seat in a running game: the table as it is now (earlier events are
    not repeated), then on to the end; 0 when the match ended, 1 when the reader quit.
    """
    after = client.events(game_id, 0, limit=1)["last_seq"]
    say(f"Game {game_id}: resumed.")
    return 0 if play_match(client, game_id, ask, say, after, wait) else 1


def play_match(client: SixtySixClient, game_id: str, ask: Ask, say: Say, after: int = 0,
               wait: Wait = blocking) -> bool:
    """Play the client's seat until the match is over (True) or the reader quits (False).

    Shows every event after number ``after``, then the table and the numbered legal actions
    whenever it is the reader's turn; the result of the match is said once. Each long-poll for
    the other seats runs through ``wait``, which the reader's ``q`` may cut short; when it
    waits for people (not computers), it says for whom, once until the reader's next turn.
    """
    view = client.view(game_id)
    texts = texts_of(view)
    me = view["seat"]
    names = table_names(view["seats"], me)
    people = {s["seat"] for s in view["seats"] if s["kind"] == "human"}
    trump: str | None = view["trump_suit"]
    last_said = None
    waiting_said = False
    while True:
        for event in client.all_events(game_id, after):
            line = texts.event(event, me, names, trump)
            trump = texts.trump_after(event, trump)
            if event["type"] == "chat" and event["seat"] == me:
                line = None  # said when it was sent
            if line:
                say(line)
                last_said = event["type"]
            after = event["seq"]
        if view["status"] in ("match_over", "aborted"):
            if last_said not in RESULT_EVENTS:
                say(texts.result(view, names))
            return True
        if not view["legal_actions"]:
            turn = view.get("to_act")
            if isinstance(turn, int) and turn in people and not waiting_said:
                say(f"Waiting for {names.get(turn, f'Seat {turn}')}… (q quits)")
                waiting_said = True
            waited = wait(partial(client.view, game_id, after_version=view["version"],
                                  wait=POLL_WAIT))
            if isinstance(waited, Quit):
                return False
            view = waited
            continue
        waiting_said = False
        say("")
        say(texts.view(view, names))
        moved = _move(client, game_id, view, texts, ask, say)
        if moved is None:
            return False
        view = moved


def _move(client: SixtySixClient, game_id: str, view: View, texts: Texts, ask: Ask, say: Say
          ) -> View | None:
    """Ask until a choice is accepted; the new view, or ``None`` when the reader quits."""
    choices = texts.choices(view)
    say(texts.listing(choices, view))
    while True:
        try:
            text = ask(texts.prompt)
        except EOFError:
            text = "q"
        command = text.strip().lower()
        if is_quit(command):
            return None
        verb, _, said = text.strip().partition(" ")
        if verb.lower() == SAY_COMMAND:
            _say(client, game_id, said, say)
            continue
        if command == HINT_COMMAND:
            try:
                say(render_hint(client.hint(game_id), texts.hint_values))
            except ApiError as exc:
                say(f"No hint: {exc.detail or exc.title}")
            continue
        action = texts.parse(text, choices, view)
        if action is None:
            say(f"Not a choice: {text.strip()!r}. {texts.help}")
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
