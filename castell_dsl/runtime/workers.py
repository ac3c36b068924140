"""Worker processes that never outlive the process that started them.

A pool's workers are children of the command (`castell simulate --jobs 2`, `compare`, a
tournament) or of the server's fork server. If that parent is stopped in a way it cannot
clean up after (SIGKILL, or SIGTERM, whose default action ends the process at once), its
workers would be left running games for nobody, forever. Two things prevent it:

- every worker watches its parent from a daemon thread (`exit_with_parent`, the pool's
  initializer): when it is re-parented (its parent is gone) it exits within a fraction of a
  second, whatever it is doing;
- a parent that stops early (an error, Ctrl-C, a consumer that had enough) terminates the
  workers it started (`stop_workers`) instead of waiting for their current work to finish.

Linux's `PR_SET_PDEATHSIG` would do the first on one platform only, and it fires when the
*thread* that started the worker ends, which a pool's management thread does; watching the
parent's id works on every POSIX system.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

#: How often a worker checks that its parent is still there (seconds).
WATCH_INTERVAL = 0.2


def exit_with_parent(parent: int | None = None, interval: float = WATCH_INTERVAL) -> None:
    """In a worker: exit as soon as the parent process is gone (re-parented to init or to a
    subreaper). Starts a daemon thread; call it first thing in the worker. `parent` is the
    parent's pid as the parent gave it: a worker that starts slowly may already have been
    re-parented when it first asks who its parent is."""
    if parent is None:
        parent = os.getppid()

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(1)  # nothing to flush: the results had nobody to go to
            time.sleep(interval)

    threading.Thread(target=watch, name="castell-parent-watch", daemon=True).start()


def worker_initializer(parent: int | None = None) -> None:
    """The initializer of a pool's workers: exit with the parent (`parent`: its pid, given by
    the parent), and leave Ctrl-C to the parent (a terminal sends SIGINT to the whole process
    group; the parent stops the workers itself, so they print no traceback of their own)."""
    exit_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def workers_inherit_memory() -> bool:
    """Whether a pool's workers start as copies of this process (the `fork` start method,
    POSIX's default before Python 3.14), so that what this process has loaded or computed
    before the pool starts is theirs without loading or computing it again. (It fixes the
    default start method, as starting a pool does.)"""
    return multiprocessing.get_context().get_start_method() == "fork"


def process_pool(jobs: int) -> ProcessPoolExecutor:
    """A process pool whose workers exit with the parent (see the module docstring)."""
    return ProcessPoolExecutor(
        max_workers=jobs, initializer=worker_initializer, initargs=(os.getpid(),)
    )


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate a pool's workers now (work in progress is abandoned) and shut it down."""
    terminate = getattr(pool, "terminate_workers", None)  # public from Python 3.14
    if callable(terminate):
        terminate()
        return
    processes: dict[Any, Any] = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(Exception):
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def worker_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """`process_pool(jobs)` as a context: shut down normally after the block, and with the
    workers terminated when the block ends early (an exception, Ctrl-C, a closed generator)."""
    pool = process_pool(jobs)
    try:
        yield pool
    except BaseException:
        stop_workers(pool)
        raise
    pool.shutdown(wait=True)
