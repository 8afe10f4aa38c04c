"""The worker tier: computer moves, hints and analyses run by ``sixtysix worker`` processes
fed by an RQ queue in Redis (:mod:`api.worker.queue`; the jobs: :mod:`api.worker.jobs`)."""
