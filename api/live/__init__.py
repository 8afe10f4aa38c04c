"""Live play: change notices (pub/sub), event streams, chat, presence and clocks."""
