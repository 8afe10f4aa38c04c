"""gunicorn's gevent worker with problem+json error pages (see :mod:`api.runtime.gunicorn_worker`).

gunicorn's ``GeventWorker`` monkey-patches the standard library (sockets, ``select``,
``threading``, ``time.sleep``) in ``init_process``, before it loads the app; the app is not
preloaded (``deploy/gunicorn.conf.py``), so redis-py, the long-poll waiter's thread and its
locks are all gevent's: a long-poll or an open stream holds a greenlet, not a thread.
"""

from __future__ import annotations

from gunicorn.workers.ggevent import GeventWorker

from api.runtime.gunicorn_worker import ProblemPages


class ProblemGeventWorker(ProblemPages, GeventWorker):  # type: ignore[misc]
    """gunicorn's ``gevent`` worker with problem+json error pages."""
