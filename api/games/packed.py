"""The packed items of a game's events list (:meth:`api.games.store.GameStore.pack`): the
events of whole hands as one JSON array, zlib-compressed (level 9) with :data:`ZDICT` as
its preset dictionary, which holds the words every hand's events repeat, so even a short
hand packs to some 400 bytes. The dictionary is part of the stored format: changing it makes
the packs written before it unreadable."""

from __future__ import annotations

import zlib
from typing import Any, Final

from api.fastjson import loads

_CARDS: Final = [f"{rank}{suit}" for suit in "CDHS" for rank in ("9", "J", "Q", "K", "T", "A")]

#: zlib's preset dictionary of packs: the events' words, the likeliest last (nearest).
ZDICT: Final = ("".join([
    '"settlement":{"reason":"false_declaration","explanation":"","winner_side":0,"winners":[0],'
    '"game_points":1,"declared_by":null,"closed_by":null,"last_trick_by":0,"missing_points":0,'
    '"at_close":null,"sides":[{"side":0,"seats":[0],"trick_points":0,"tricks":0,"melds":[],'
    '"forfeited_melds":[],"last_trick_bonus":10,"total":0,"cards":[]}],"hands_left":{"0":[]}}',
    '{"seq":1,"type":"dealer_chosen","data":{"dealer":1,"draws":[["',
    '{"seq":2,"type":"hand_dealt","data":{"hand_no":1,"dealer":1,"forehand":0,"active":[0,1],'
    '"trump_suit":"C","trump_card":"","talon_size":12},"owner":null,"private":{"deck":["',
    '","'.join(_CARDS), '"]}}',
    '{"seq":3,"type":"cards_dealt","data":{"seat":0},"owner":0,"private":{"cards":["',
    '{"seq":10,"type":"close","data":{"seat":0,"talon_size":10}},',
    '{"seq":26,"type":"declare","data":{"seat":1,"points":66}},',
    '{"seq":11,"type":"meld","data":{"seat":0,"suit":"H","points":20,"cards":["',
    '{"seq":12,"type":"talon_exhausted","data":{}},{"seq":40,"type":"chat","data":{"seat":0,"text":"',
    '{"seq":27,"type":"hand_settled","data":{',
    '{"seq":8,"type":"card_drawn","data":{"seat":0,"card":null,"talon_size":11},"owner":0,'
    '"private":{"card":"',
    '{"seq":7,"type":"trick_won","data":{"seat":0,"cards":["TS","AH"],"points":21,"reason":"higher_card"}},',
    '"reason":"off_suit"}},"reason":"trump"}},',
    '{"seq":5,"type":"card_played","data":{"seat":0,"card":"',
    '"}},{"seq":6,"type":"card_played","data":{"seat":1,"card":"',
]).encode())


def pack(lines: list[str]) -> bytes:
    """One packed item of ``lines`` (events as JSON, in order)."""
    packer = zlib.compressobj(9, zdict=ZDICT)
    return packer.compress(("[" + ",".join(lines) + "]").encode()) + packer.flush()


def unpack(item: bytes) -> list[dict[str, Any]]:
    """The events (as dicts) of a packed item."""
    unpacker = zlib.decompressobj(zdict=ZDICT)
    return list(loads(unpacker.decompress(item) + unpacker.flush()))
