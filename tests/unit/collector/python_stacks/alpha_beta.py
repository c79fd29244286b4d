"""The Python stacks test program: main() spends 70% of its time in alpha() and 30% in beta(),
each called through the C extension sightline_callback (built without frame pointers), in
rounds of 7 ms and 3 ms of the thread's CPU time (not wall time, so that a
test machine that preempts it keeps the shares). Prints its main thread's id as "main-tid N".
Usage: alpha_beta.py [SECONDS] (default 2)."""
import sys
import threading
import time

import sightline_callback

ROUND_SECONDS = 0.010


def spin(seconds):
    end = time.thread_time() + seconds
    spins = 0
    while time.thread_time() < end:
        spins += 1
    return spins


def alpha():
    return spin(ROUND_SECONDS * 0.7)


def beta():
    return spin(ROUND_SECONDS * 0.3)


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    print(f"main-tid {threading.get_native_id()}", flush=True)
    for _ in range(int(seconds / ROUND_SECONDS)):
        sightline_callback.call(alpha)
        sightline_callback.call(beta)
    print(f"calls {sightline_callback.calls()}")


main()
