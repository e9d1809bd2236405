"""Compiled (numba) new games: ``default_rng(seed).permutation(H * W)``'s layout in one call.

A new random game is ``MineLayout.random(W, H, mines, np.random.default_rng(seed))``:
a ``SeedSequence`` hashes the seed, ``PCG64`` is seeded from it, and
``Generator.permutation`` shuffles the cells. In numpy that costs more than a
whole beginner step of the auto-solver (making the generator alone takes about
15 us, most of it in ``SeedSequence``), so the envs draw it here instead, bit
for bit as numpy does:

1. ``SeedSequence(seed)``: the seed's 32-bit words hashed into a pool of 4 words
   and mixed (``mix_entropy``), then ``generate_state(4, uint64)``;
2. ``PCG64``: a 128-bit LCG seeded by ``pcg_setseq_128_srandom_r``, each 64-bit
   output XSL-RR of the new state; a 32-bit draw takes the low half of a 64-bit
   output and keeps the high half for the next one (``has_uint32``);
3. ``Generator.permutation(n)``: ``arange(n)`` shuffled from the back, the swap
   index by masked rejection (``random_interval``: 32-bit draws below 2**32).

The generator's state after the shuffle is handed back too, so the first-click
policy goes on drawing from where ``default_rng(seed)`` would be
(:func:`generator_state`), or, for the one draw of a mine moved off a ``"safe"``
first click, without any generator (:func:`choose_one`, plain Python: it runs in
one game of eight). ``tests/minesweep_env/core/test_layout_kernels.py`` checks all of it against
numpy
itself.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]  # numba's own dependency
from numba import njit, types
from numba.extending import intrinsic

from ..solver.rules.complete_play_compiled import layout_from_priorities

_MASK32 = np.uint64(0xFFFFFFFF)
_SHIFT16 = np.uint64(16)
_SHIFT32 = np.uint64(32)
_INIT_A = np.uint64(0x43B0D7E5)
_MULT_A = np.uint64(0x931E8875)
_INIT_B = np.uint64(0x8B51F9DD)
_MULT_B = np.uint64(0x58F38DED)
_MIX_L = np.uint64(0xCA01F9DD)
_MIX_R = np.uint64(0x4973F715)
"""``SeedSequence``'s hash constants (numpy/random/bit_generator.pyx)."""
_MULT_HIGH = np.uint64(2549297995355413924)
_MULT_LOW = np.uint64(4865540595714422341)
"""PCG's default 128-bit multiplier, high and low words."""

STATE_WORDS = 6
"""A generator state as :func:`layouts_from_seeds` writes it: the 128-bit state (high,
low), the increment (high, low), ``has_uint32`` and ``uinteger``."""


@njit(cache=True)
def _hashmix(value, hash_const):
    value = (value ^ hash_const) & _MASK32
    hash_const = (hash_const * _MULT_A) & _MASK32
    value = (value * hash_const) & _MASK32
    return value ^ (value >> _SHIFT16), hash_const


@njit(cache=True)
def _mix(x, y):
    result = (_MIX_L * x - _MIX_R * y) & _MASK32
    return result ^ (result >> _SHIFT16)


@intrinsic
def _high_product(typingctx, a, b):
    """The high 64 bits of the 128-bit product of two uint64: LLVM's i128 multiply, one
    machine instruction where 32-bit halves take four multiplies and their carries."""
    signature = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, sig, args):
        wide = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        return builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), ir.IntType(64))

    return signature, codegen


@njit(cache=True)
def _step(high, low, inc_high, inc_low):
    """One LCG step: state * multiplier + increment, modulo 2**128, on 64-bit words."""
    product_high = _high_product(low, _MULT_LOW) + high * _MULT_LOW + low * _MULT_HIGH
    return _add(product_high, low * _MULT_LOW, inc_high, inc_low)


@njit(cache=True, inline="always")
def _draw32(high, low, inc_high, inc_low, has_half, half):
    """numpy's next 32-bit draw from ``PCG64``: the kept upper half of the last 64-bit
    output if there is one, else one LCG step and its XSL-RR output, whose upper half is
    kept for the next draw. Returns the draw and the new ``high, low, has_half, half``."""
    if has_half:
        return half, high, low, False, half
    high, low = _step(high, low, inc_high, inc_low)
    folded = high ^ low
    turn = high >> np.uint64(58)
    output = (folded >> turn) | (folded << ((np.uint64(64) - turn) & np.uint64(63)))
    return output & _MASK32, high, low, True, output >> _SHIFT32


@njit(cache=True)
def _add(high, low, other_high, other_low):
    total_low = low + other_low
    carry = np.uint64(1) if total_low < low else np.uint64(0)
    return high + other_high + carry, total_low


@njit(cache=True)
def _seed_words(seed):
    """``SeedSequence(seed).generate_state(4, np.uint64)`` for ``0 <= seed < 2**63``."""
    entropy = (np.uint64(seed) & _MASK32, np.uint64(seed) >> _SHIFT32)
    words = 2 if entropy[1] != 0 else 1
    pool = np.zeros(4, np.uint64)
    hash_const = _INIT_A
    for i in range(4):
        pool[i], hash_const = _hashmix(entropy[i] if i < words else np.uint64(0), hash_const)
    for source in range(4):
        for target in range(4):
            if source != target:
                hashed, hash_const = _hashmix(pool[source], hash_const)
                pool[target] = _mix(pool[target], hashed)
    out = np.empty(4, np.uint64)
    hash_const = _INIT_B
    for i in range(8):
        value = pool[i % 4] ^ hash_const
        hash_const = (hash_const * _MULT_B) & _MASK32
        value = (value * hash_const) & _MASK32
        value ^= value >> _SHIFT16
        # Two 32-bit words make one 64-bit word, the first the low half.
        if i % 2 == 0:
            out[i // 2] = value
        else:
            out[i // 2] |= value << _SHIFT32
    return out


@njit(cache=True)
def _permutation(seed, out, state):
    """``np.random.default_rng(seed).permutation(len(out))`` into ``out``; the generator's
    state after it into ``state`` (:data:`STATE_WORDS`). numpy is the reference:
    ``tests/minesweep_env/core/test_layout_kernels.py::test_layouts_and_generator_states_are_numpys``."""
    words = _seed_words(seed)
    inc_high = (words[2] << np.uint64(1)) | (words[3] >> np.uint64(63))
    inc_low = (words[3] << np.uint64(1)) | np.uint64(1)
    high, low = _step(np.uint64(0), np.uint64(0), inc_high, inc_low)
    high, low = _add(high, low, words[0], words[1])
    high, low = _step(high, low, inc_high, inc_low)
    has_half = False
    half = np.uint64(0)
    n = len(out)
    for i in range(n):
        out[i] = i
    mask = np.uint64(max(n - 1, 0))
    for shift in (1, 2, 4, 8, 16, 32):
        mask |= mask >> np.uint64(shift)
    for i in range(n - 1, 0, -1):
        bound = np.uint64(i)
        # numpy's mask is the smallest 2**k - 1 at or above the bound: as the bound falls
        # by one a step, it only ever halves.
        while (mask >> np.uint64(1)) >= bound:
            mask >>= np.uint64(1)
        while True:
            draw, high, low, has_half, half = _draw32(high, low, inc_high, inc_low, has_half, half)
            value = draw & mask
            if value <= bound:
                break
        j = np.int64(value)
        out[i], out[j] = out[j], out[i]
    state[0], state[1], state[2], state[3] = high, low, inc_high, inc_low
    state[4] = np.uint64(1) if has_half else np.uint64(0)
    state[5] = half


@njit(cache=True)
def layouts_from_seeds(seeds, mine_count, height, width, priorities, mines, numbers, states):
    """Row k: ``MineLayout.random(W, H, mine_count, np.random.default_rng(seeds[k]))``'s
    priorities (int64), mines (bool) and numbers (int8), flat, and the generator's state
    after the draw (:data:`STATE_WORDS` uint64). Seeds are in ``0..2**63 - 1``."""
    for k in range(len(seeds)):
        _permutation(seeds[k], priorities[k], states[k])
        layout_from_priorities(priorities[k], mine_count, height, width, mines[k], numbers[k])


@njit(cache=True)
def choose_one_compiled(words, count):
    """:func:`choose_one` in compiled code, for ``count`` in ``1..2**32 - 1`` (unchecked):
    the vector env's batched step moves a mine off a ``"safe"`` first click with it. The
    128-bit state steps as in :func:`_permutation`; Lemire's product of a 32-bit draw and
    a count below 2**32 fits in 64 bits. numpy's ``choice`` is the reference:
    ``tests/minesweep_env/core/test_layout_kernels.py::test_choose_one_is_numpys_choice``."""
    if count == 1:
        return 0
    high, low, inc_high, inc_low = words[0], words[1], words[2], words[3]
    has_half = words[4] != 0
    half = words[5]
    bound = np.uint64(count)
    threshold = np.uint64(0)
    known = False
    while True:
        draw, high, low, has_half, half = _draw32(high, low, inc_high, inc_low, has_half, half)
        scaled = draw * bound
        leftover = scaled & _MASK32
        if leftover >= bound:
            return np.int64(scaled >> _SHIFT32)
        if not known:
            threshold = ((_MASK32 + np.uint64(1)) - bound) % bound
            known = True
        if leftover >= threshold:
            return np.int64(scaled >> _SHIFT32)


_PCG_MULTIPLIER = int(_MULT_HIGH) << 64 | int(_MULT_LOW)
_MASK64_INT = 2**64 - 1
_MASK128_INT = 2**128 - 1


def choose_one(words: np.ndarray, count: int) -> int:
    """``generator.choice(count, size=1, replace=False)[0]`` for the ``PCG64`` generator in
    the state ``words`` (a row of :func:`layouts_from_seeds`' states), without making it.

    numpy samples one of ``count`` items by Floyd's method: one integer in
    ``0..count-1`` (``random_bounded_uint64``), for a bound below 2**32 by Lemire's
    method on 32-bit draws (each the low half of a 64-bit output, the high half kept
    for the next one, as in :func:`_permutation`). Counts from 1 to 2**32 - 1 (a board
    has at most 2**20 cells). The state after the draw is not kept: it is the game's
    last draw.
    """
    if not 1 <= count < 2**32:
        raise ValueError(f"count must be in 1..2**32 - 1, got {count}")
    if count == 1:
        return 0  # a bound of 0 draws nothing
    high, low, inc_high, inc_low, has_half, half = words.tolist()
    state = high << 64 | low
    increment = inc_high << 64 | inc_low
    threshold = -1  # Lemire's rejection threshold, 2**32 % count, computed only if needed
    while True:
        if has_half:
            has_half, draw = 0, half
        else:
            state = (state * _PCG_MULTIPLIER + increment) & _MASK128_INT
            folded = (state >> 64) ^ (state & _MASK64_INT)
            turn = state >> 122
            output = ((folded >> turn) | (folded << ((64 - turn) & 63))) & _MASK64_INT
            has_half, half, draw = 1, output >> 32, output & 0xFFFFFFFF
        scaled = draw * count
        leftover = scaled & 0xFFFFFFFF
        if leftover >= count:
            return scaled >> 32
        if threshold < 0:
            threshold = (2**32 - count) % count
        if leftover >= threshold:
            return scaled >> 32


def generator_state(words: np.ndarray) -> dict:
    """A ``PCG64`` state dict (``bit_generator.state``) from a row of :func:`layouts_from_seeds`'
    states: set it on a generator to draw on as ``default_rng(seed)`` would after the layout."""
    high, low, inc_high, inc_low, has_half, half = words.tolist()
    return {
        "bit_generator": "PCG64",
        "state": {"state": high << 64 | low, "inc": inc_high << 64 | inc_low},
        "has_uint32": has_half,
        "uinteger": half,
    }


SIGNATURE = (
    types.Array(types.int64, 1, "C"),
    types.int64,
    types.int64,
    types.int64,
    types.Array(types.int64, 2, "C"),
    types.Array(types.boolean, 2, "C"),
    types.Array(types.int8, 2, "C"),
    types.Array(types.uint64, 2, "C"),
)
"""The one signature both envs call :func:`layouts_from_seeds` with (one env: one row)."""


def compile_kernels() -> None:
    """Compile :func:`layouts_from_seeds` for :data:`SIGNATURE` (the warm-up does)."""
    if SIGNATURE not in layouts_from_seeds.overloads:
        layouts_from_seeds.compile(SIGNATURE)
