"""test_fuzz_console.py: a short run of the console fuzzer
(tests/console/fuzz.py) with a fixed seed, so a failure replays; `make
stress` runs a longer one with a new seed each time."""

from fuzz import fuzz_check

SEED = 1
BATCHES = 6


def test_fuzz_fixed_seed(k):
    counts = fuzz_check(k, SEED, BATCHES)
    assert counts['batches'] == BATCHES, counts
