"""Games as the service keeps them: the use cases, their Redis store, records, the computers'
replies and advice, seat tokens and what follows each save."""
