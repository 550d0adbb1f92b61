# distutils: language = c++
# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The compiled counting kernel: a component's programme in C++ machine words.

`counting.programme.Programme` plans each placement of a supercell (the bounds on
its mines, where the open constraints' sums go); `count` runs that plan over
every state, as the pure-Python loop does, and `Counted.shares` walks it back
once per end state into each supercell's mine weight by the component's mine
count, so that a supercell's share under any outside weight ``rest`` is one
dot product. Every number is an exact count in 64 bits: a component of at
most `MAX_CELLS` cells has fewer than 2**64 layouts with a given mine count
times the cells of one supercell (60 * C(60, 30) < 2**63). Larger components,
and plans past the memory budget, are left to the pure-Python engine, which
stays the reference (tests/solver/test_kernel.py holds the two equal).

`Values` and `best_won` play the game tree of `perfect` and `endgame` over sets of equally
weighted layouts, as sparse bit sets of machine words, counting the layouts won exactly:
every move's count (`perfect`), or the best move's, pruned (`endgame`; the float
`endgame._Search` is its reference, tests/solver/test_endgame_kernel.py).
"""

from cython.operator cimport dereference as deref
from libc.stdint cimport uint32_t, uint64_t
from libc.math cimport log2
from libc.string cimport memcmp, memcpy
from libc.time cimport CLOCKS_PER_SEC, clock
from libcpp.algorithm cimport sort
from libcpp.pair cimport pair
from libcpp.string cimport string
from libcpp.map cimport map
from libcpp.unordered_map cimport unordered_map
from libcpp.vector cimport vector


ctypedef uint64_t u64

cdef extern from *:
    """
    #include <stdint.h>
    /* out[0..limbs+4): sum over m < terms of s[m] * r[m], r[m] given in 32-bit limbs
       (r[m * limbs + j]); s[m] < 2**63, so a column's sum (at most 61 terms of 95 bits,
       plus the carry) fits in 128 bits. */
    static void dot_limbs(const uint64_t* s, const uint32_t* r, int terms, int limbs,
                          uint32_t* out) {
        unsigned __int128 acc = 0;
        int j, m;
        for (j = 0; j < limbs; j++) {
            for (m = 0; m < terms; m++) {
                if (s[m]) acc += (unsigned __int128)s[m] * r[m * limbs + j];
            }
            out[j] = (uint32_t)acc;
            acc >>= 32;
        }
        for (j = limbs; j < limbs + 4; j++) {
            out[j] = (uint32_t)acc;
            acc >>= 32;
        }
    }
    """
    void dot_limbs(const u64* s, const uint32_t* r, int terms, int limbs, uint32_t* out) nogil

cdef extern from *:
    """
    /* rest[m * (limbs + 3) + j], m < n: sum over t < nt, t + m < size of w[t] * g[t + m],
       g[i] given in 32-bit limbs (g[i * limbs + j]). A column's sum (fewer than 2**32 terms
       below 2**96, plus the carry) fits in 128 bits; a sum in limbs + 3 limbs. */
    static void correlate_limbs(const uint64_t* w, int nt, const uint32_t* g, int size,
                                int limbs, int n, uint32_t* rest) {
        int wide = limbs + 3, m, j, t, top;
        for (m = 0; m < n; m++) {
            unsigned __int128 acc = 0;
            top = size - m < nt ? size - m : nt;
            for (j = 0; j < wide; j++) {
                if (j < limbs) {
                    for (t = 0; t < top; t++) {
                        if (w[t]) acc += (unsigned __int128)w[t] * g[(t + m) * limbs + j];
                    }
                }
                rest[m * wide + j] = (uint32_t)acc;
                acc >>= 32;
            }
        }
    }
    """
    void correlate_limbs(const u64* w, int nt, const uint32_t* g, int size, int limbs, int n,
                         uint32_t* rest) nogil

cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long) nogil

#: The most cells a component counted here may have (see the module docstring).
MAX_CELLS = 60
cdef enum:
    RESERVED_MOVES = 4096  # the most moves of a layer `count` makes room for at its start


cdef class Counted:
    """A programme counted: its layers' states and counts, and its moves."""

    cdef vector[vector[string]] states  # per layer: each state's open sums, one byte each
    cdef vector[vector[u64]] fwd  # per layer: state * stride + mines -> partial layouts
    cdef vector[int] strides  # per layer: the cells placed so far, plus one
    cdef vector[vector[int]] source  # per placement: each move's state before,
    cdef vector[vector[int]] mines  # the supercell's mines,
    cdef vector[vector[int]] target  # and its state after
    cdef vector[vector[u64]] ways  # per placement: comb(size, x)
    cdef int cells
    cdef readonly long long held
    cdef unordered_map[int, vector[u64]] walked  # per end state: see `_walked`
    cdef unordered_map[int, int] lengths

    def ends(self):
        """The last layer's states (the tracked constraint's sum, or ``()``)."""
        last = self.states.size() - 1
        return [tuple(<bytes>state) for state in self.states[last]]

    def poly(self, int end):
        """Layouts by mine count that end in state number ``end`` (no trailing zeros)."""
        cdef int last = self.states.size() - 1
        cdef int stride = self.strides[last]
        cdef int m
        found = [self.fwd[last][end * stride + m] for m in range(stride)]
        while len(found) > 1 and found[len(found) - 1] == 0:
            found.pop()
        return found

    def weights(self, int end):
        """``S[k][M]``: the mines of placement ``k``'s supercell summed over the layouts
        with ``M`` mines that end in state number ``end``; ``M`` up to the length of
        `poly`. A share under outside weights ``rest`` is ``sum(S[k][M] * rest[M])``."""
        cdef vector[u64]* walked = self._walked(end)
        cdef int length = self.lengths[end]
        cdef int k, m
        return [
            [deref(walked)[k * length + m] for m in range(length)]
            for k in range(self.source.size())
        ]

    def shares(self, int end, list rest):
        """``[sum(S[k][M] * rest[M] for M) for k]`` (see `weights`) for any outside weights
        ``rest``, non-negative ints: exactly, in 32-bit limbs (None for other numbers)."""
        cdef vector[uint32_t] table  # rest[M]'s limbs, M by M
        cdef int terms = min(self._length(end), len(rest))
        cdef int limbs = _limbs(rest, terms, table)
        if limbs < 0:
            return None
        return self._dots(end, table, terms, limbs)

    def shares_at(self, list ends, list rest):
        """``[shares(end, rest) for end in ends]``, ``rest`` made into limbs once (None for
        numbers that are not non-negative ints)."""
        cdef vector[uint32_t] table
        cdef int end, most = 0
        for end in ends:
            most = max(most, self._length(end))
        cdef int terms = min(most, len(rest))
        cdef int limbs = _limbs(rest, terms, table)
        if limbs < 0:
            return None
        found = []
        for end in ends:
            found.append(self._dots(end, table, min(terms, self.lengths[end]), limbs))
        return found

    def shares_correlated(self, int end, list outside, list polys):
        """``[shares(end, rest(poly)) for poly in polys]``, each ``rest(poly)[M]`` being
        ``sum(poly[t] * outside[t + M] for t)`` (`counting.polynomials.correlate`, the missing
        ``outside`` entries 0) for ``M`` up to the length of `poly`\ (end): the correlation
        too in limbs, exactly (None when ``outside`` holds other numbers than non-negative
        ints, or a ``poly`` other numbers than ints in 0 .. 2**64 - 1)."""
        cdef vector[uint32_t] table, rest
        cdef vector[u64] weights
        cdef int n = self._length(end)
        cdef int most = max([len(poly) for poly in polys], default=0)
        cdef int size = max(0, min(len(outside), most + n - 1))  # the entries any sum meets
        cdef int limbs = _limbs(outside, size, table)
        cdef int wide, nt
        if limbs < 0:
            return None
        wide = limbs + 3  # a sum of at most 2**32 terms below 2**64 times an entry
        found = []
        for poly in polys:
            nt = len(poly)
            if not _words(poly, weights):
                return None
            rest.assign(n * wide, 0)
            correlate_limbs(&weights[0] if nt else NULL, nt, &table[0] if size else NULL, size,
                            limbs, n, &rest[0])
            found.append(self._dots(end, rest, n, wide))
        return found

    cdef int _length(self, int end):
        """How many mine counts the walk back from state number ``end`` has."""
        self._walked(end)
        return self.lengths[end]

    cdef list _dots(self, int end, vector[uint32_t]& table, int terms, int limbs):
        """Each placement's share under the outside weights ``table`` (``terms`` entries of
        ``limbs`` 32-bit limbs each), as ints."""
        cdef vector[u64]* walked = self._walked(end)
        cdef int length = self.lengths[end]
        cdef int n = self.source.size()
        cdef int k
        cdef vector[uint32_t] out
        out.resize(limbs + 4)
        found = []
        for k in range(n):
            dot_limbs(&deref(walked)[k * length], &table[0] if terms else NULL, terms, limbs,
                      &out[0])
            found.append(int.from_bytes((<char*>&out[0])[:(limbs + 4) * 4], "little"))
        return found

    cdef vector[u64]* _walked(self, int end):
        """The walk back from state number ``end``, made once (placement by placement,
        ``lengths[end]`` mine counts each)."""
        if self.walked.count(end) == 0:
            self.lengths[end] = len(self.poly(end))
            self._walk_back(end, self.lengths[end], self.walked[end])
        return &self.walked[end]

    cdef void _walk_back(self, int end, int length, vector[u64]& found):
        cdef int n = self.source.size()
        cdef int k, i, s, x, d, m, r, placed
        cdef int sf, sb, sn
        cdef u64 w, v, f, xw
        cdef vector[u64] after  # per state of the layer after: completions by mines left
        cdef vector[u64] before
        cdef vector[u64] share
        cdef int last = self.states.size() - 1
        sn = 1
        after.assign(self.states[last].size(), 0)
        after[end] = 1
        found.assign(n * length, 0)
        placed = self.cells
        for k in range(n - 1, -1, -1):
            sf = self.strides[k]
            placed = sf - 1
            sb = self.cells - placed + 1
            before.assign(self.states[k].size() * sb, 0)
            share.assign(self.cells + 1, 0)
            for i in range(self.source[k].size()):
                s = self.source[k][i]
                x = self.mines[k][i]
                d = self.target[k][i]
                w = self.ways[k][x]
                for r in range(sn):
                    v = after[d * sn + r]
                    if v == 0:
                        continue
                    before[s * sb + r + x] += w * v
                    if x:
                        xw = x * w * v
                        for m in range(sf):
                            f = self.fwd[k][s * sf + m]
                            if f:
                                share[m + x + r] += xw * f
            for m in range(length):
                found[k * length + m] = share[m]
            after.swap(before)
            sn = sb


cdef int _limbs(list values, int terms, vector[uint32_t]& table) except -2:
    """The first ``terms`` ``values`` in 32-bit limbs, value by value, into ``table``: the
    limbs per value, or -1 when one is not a non-negative int."""
    cdef int m, limbs = 1
    cdef bytes raw
    for m in range(terms):
        value = values[m]
        if type(value) is not int or value < 0:
            return -1
        limbs = max(limbs, ((<object>value).bit_length() + 31) // 32)
    table.assign(terms * limbs, 0)
    for m in range(terms):
        raw = (<object>values[m]).to_bytes(limbs * 4, "little")
        memcpy(&table[m * limbs], <const char*>raw, limbs * 4)
    return limbs


cdef bint _words(list poly, vector[u64]& into) except -1:
    """``poly`` as machine words into ``into``; False when an entry is not an int in
    0 .. 2**64 - 1."""
    cdef int t, nt = len(poly)
    into.resize(nt)
    for t in range(nt):
        value = poly[t]
        if type(value) is not int or value < 0 or (<object>value).bit_length() > 64:
            return False
        into[t] = <u64>(<object>value)
    return True


def correlate(list outside, list polys, int n):
    """``[counting.polynomials.correlate(outside, poly, n) for poly in polys]`` in limbs, exactly:
    ``sum(poly[t] * outside[u + t] for t)`` for ``u < n``, the missing ``outside`` entries
    0; None when ``outside`` holds other numbers than non-negative ints, or a ``poly``
    other numbers than ints in 0 .. 2**64 - 1."""
    cdef vector[uint32_t] table, rest
    cdef vector[u64] weights
    cdef int most = max([len(poly) for poly in polys], default=0)
    cdef int size = max(0, min(len(outside), most + n - 1))  # the entries any sum meets
    cdef int limbs, wide, nt, u
    cdef char* raw
    if n < 0:
        return None
    limbs = _limbs(outside, size, table)
    wide = limbs + 3
    if limbs < 0:
        return None
    found = []
    for poly in polys:
        nt = len(poly)
        if not _words(poly, weights):
            return None
        rest.assign(max(n, 1) * wide, 0)
        correlate_limbs(&weights[0] if nt else NULL, nt, &table[0] if size else NULL, size,
                        limbs, n, &rest[0])
        raw = <char*>&rest[0]
        found.append([
            int.from_bytes(raw[u * wide * 4:(u + 1) * wide * 4], "little") for u in range(n)
        ])
    return found


cdef class _Plan:
    """A programme's plan, placement by placement, in C++ vectors (see
    `counting.programme.Step`)."""

    cdef vector[int] size, low, high, fresh
    cdef vector[char] kept_all, opened
    cdef vector[vector[int]] carried, hit_at, b_src, b_need, b_left

    cdef void reserve(self, int n):
        """Room for ``n`` placements: the vectors of vectors never move as they grow."""
        self.size.reserve(n)
        self.low.reserve(n)
        self.high.reserve(n)
        self.fresh.reserve(n)
        self.kept_all.reserve(n)
        self.opened.reserve(n)
        self.carried.reserve(n)
        self.hit_at.reserve(n)
        self.b_src.reserve(n)
        self.b_need.reserve(n)
        self.b_left.reserve(n)

    cdef void add(self, int size, bint kept_all, int low, int high, int fresh, bint opened):
        self.size.push_back(size)
        self.kept_all.push_back(kept_all)
        self.low.push_back(low)
        self.high.push_back(high)
        self.fresh.push_back(fresh)
        self.opened.push_back(opened)
        self.carried.push_back(vector[int]())
        self.hit_at.push_back(vector[int]())
        self.b_src.push_back(vector[int]())
        self.b_need.push_back(vector[int]())
        self.b_left.push_back(vector[int]())

    def steps(self):
        """The plan as `counting.programme.Step` tuples (for the tests)."""
        return [
            (
                self.size[k],
                list(self.carried[k]),
                bool(self.kept_all[k]),
                [
                    (self.b_src[k][j], self.b_need[k][j], self.b_left[k][j])
                    for j in range(self.b_src[k].size())
                ],
                self.low[k],
                self.high[k],
                list(self.hit_at[k]),
                self.fresh[k],
                bool(self.opened[k]),
            )
            for k in range(self.size.size())
        ]


def plan(list sigs, list sizes, list needs, int tracked):
    """`counting.programme.Programme._plan` in C++: the plan of placing supercells with the
    constraints ``sigs[k]`` and ``sizes[k]`` cells in this order; ``needs[r]``: rule
    ``r``'s mines (the most it may hold for ``tracked``, the rule whose sum is followed,
    -1 for none)."""
    cdef vector[vector[int]] sig_of = sigs  # converted once: the loops are in C
    cdef vector[int] size_of = sizes
    cdef vector[int] need_of = needs
    return _plan(sig_of, size_of, need_of, tracked)


cdef _Plan _plan(vector[vector[int]]& sig_of, vector[int]& size_of, vector[int]& need_of,
                 int tracked):
    cdef _Plan p = _Plan()
    cdef int n = sig_of.size(), rules = need_of.size()
    cdef int k, j, rule, size, low0, high0, need, left, fresh, at
    cdef vector[int] first, last, room, open_rules, now_open, opening, sig
    cdef vector[int] position  # rule -> its place in ``open_rules`` (-1: not open)
    cdef vector[char] in_sig
    p.reserve(n)
    first.assign(rules, -1)
    last.assign(rules, -1)
    room.assign(rules, 0)
    position.assign(rules, -1)
    in_sig.assign(rules, 0)
    for k in range(n):
        for rule in sig_of[k]:
            if first[rule] < 0:
                first[rule] = k
            last[rule] = k
            room[rule] += size_of[k]
    if 0 <= tracked < rules and last[tracked] >= 0:
        last[tracked] = n  # never closes: the last states tell its sum
    for k in range(n):
        sig = sig_of[k]
        size = size_of[k]
        now_open.clear()
        opening.clear()
        p.add(size, False, 0, size, 0, False)
        for j in range(open_rules.size()):
            if last[open_rules[j]] > k:
                p.carried[k].push_back(j)
                now_open.push_back(open_rules[j])
        low0, high0 = 0, size
        for rule in sig:
            room[rule] -= size
            if rule == tracked:
                if first[rule] == k:
                    opening.push_back(rule)
                continue
            need, left = need_of[rule], room[rule]
            if first[rule] == k:
                if need < high0:
                    high0 = need
                if need - left > low0:
                    low0 = need - left
                if left:
                    opening.push_back(rule)
            else:
                p.b_src[k].push_back(position[rule])
                p.b_need[k].push_back(need)
                p.b_left[k].push_back(left)
        for rule in sig:
            in_sig[rule] = 1
        for j in range(now_open.size()):
            if in_sig[now_open[j]]:
                p.hit_at[k].push_back(j)
        for rule in sig:
            in_sig[rule] = 0
        fresh = opening.size()
        for rule in opening:
            now_open.push_back(rule)
        p.kept_all[k] = p.carried[k].size() == open_rules.size()
        p.low[k], p.high[k], p.fresh[k] = low0, high0, fresh
        p.opened[k] = now_open.size() > 0
        for rule in open_rules:
            position[rule] = -1
        open_rules.swap(now_open)
        for at in range(open_rules.size()):
            position[open_rules[at]] = at
    return p


def count(object plans, long long cap, long long most_bytes):
    """Run ``plans`` (a `plan`, or one `counting.programme.Step` tuple per placement: size,
    carried, kept_all, bounds, low, high, hit_at, fresh, opened) over every state.

    None when the component is too large for machine words, the partial counts and
    moves would pass ``cap``, or the counts (a word per state and mine count placed so
    far, however many are 0) would take more than ``most_bytes``: the pure-Python engine
    then counts it, or says why not.
    """
    cdef _Plan p
    cdef int k
    if isinstance(plans, _Plan):
        p = plans
    else:
        p = _Plan()
        for k, (size, carried, kept_all, bounds, low, high, hit_at, fresh, opened) in enumerate(
            plans
        ):
            p.add(size, kept_all, low, high, fresh, opened)
            p.carried[k] = carried
            p.hit_at[k] = hit_at
            for src, need, left in bounds:
                p.b_src[k].push_back(src)
                p.b_need[k].push_back(need)
                p.b_left[k].push_back(left)
    return _run(p, cap, most_bytes)


cdef object _run(_Plan p, long long cap, long long most_bytes):
    cdef Counted c = Counted()
    cdef int n = p.size.size()
    cdef int k, s, x, j, m, low, high, need, d, stride, new_stride
    cdef int size, low0, high0, fresh, nb, nc, nh, cells = 0
    cdef bint kept_all, opened
    cdef long long held = 0, added, nnz, used = 0, moves
    cdef string sums, key
    cdef string* state
    cdef unordered_map[string, int] index
    cdef unordered_map[string, int].iterator found
    cdef u64 v, w
    for k in range(n):
        cells += p.size[k]
    if cells > MAX_CELLS:
        return None
    c.cells = cells
    c.states.resize(n + 1)
    c.fwd.resize(n + 1)
    c.strides.resize(n + 1)
    c.source.resize(n)
    c.mines.resize(n)
    c.target.resize(n)
    c.ways.resize(n)
    c.states[0].push_back(string())
    c.fwd[0].push_back(1)
    c.strides[0] = 1
    for k in range(n):
        size, kept_all, low0, high0 = p.size[k], p.kept_all[k], p.low[k], p.high[k]
        fresh, opened = p.fresh[k], p.opened[k]
        nb = p.b_src[k].size()
        nc = p.carried[k].size()
        nh = p.hit_at[k].size()
        w = 1
        c.ways[k].push_back(w)
        for x in range(1, size + 1):
            w = w * (size - x + 1) // x  # comb(size, x), exactly: below 31 * comb(60, 30)
            c.ways[k].push_back(w)
        stride = c.strides[k]
        new_stride = stride + size
        c.strides[k + 1] = new_stride
        index.clear()
        # Room for the moves of a small layer at once (a push that grows costs more than a
        # count); past `RESERVED_MOVES` the layer grows as it goes: its bound on the moves,
        # every state times every number of mines, may be far more than it makes.
        moves = min(c.states[k].size() * (high0 - low0 + 1), RESERVED_MOVES)
        index.reserve(moves)
        c.states[k + 1].reserve(moves)
        c.source[k].reserve(moves)
        c.mines[k].reserve(moves)
        c.target[k].reserve(moves)
        added = 0
        for s in range(c.states[k].size()):
            state = &c.states[k][s]  # not copied
            low, high = low0, high0
            for j in range(nb):
                need = p.b_need[k][j] - <unsigned char>deref(state)[p.b_src[k][j]]
                if need < high:
                    high = need
                if need - p.b_left[k][j] > low:
                    low = need - p.b_left[k][j]
            if low > high:
                continue
            if kept_all:
                sums = deref(state)
            else:
                sums.clear()
                for j in range(nc):
                    sums.push_back(deref(state)[p.carried[k][j]])
            nnz = 0
            for m in range(stride):
                if c.fwd[k][s * stride + m]:
                    nnz += 1
            for x in range(low, high + 1):
                key = sums
                for j in range(nh):
                    key[p.hit_at[k][j]] = <char>(<unsigned char>key[p.hit_at[k][j]] + x)
                for j in range(fresh):
                    key.push_back(<char>x)
                found = index.find(key)
                if found == index.end():
                    d = c.states[k + 1].size()
                    index[key] = d
                    c.states[k + 1].push_back(key)
                    c.fwd[k + 1].resize((d + 1) * new_stride, 0)
                else:
                    d = deref(found).second
                w = c.ways[k][x]
                for m in range(stride):
                    v = c.fwd[k][s * stride + m]
                    if v:
                        c.fwd[k + 1][d * new_stride + m + x] += v * w
                c.source[k].push_back(s)
                c.mines[k].push_back(x)
                c.target[k].push_back(d)
                added += nnz + 1
            if held + added > cap and opened:
                return None
        used += 8 * c.fwd[k + 1].size() + 12 * c.source[k].size()
        if used > most_bytes:
            return None
        held += c.source[k].size()
        for m in range(c.fwd[k + 1].size()):
            if c.fwd[k + 1][m]:
                held += 1
        if held > cap and opened:
            return None
    c.held = held
    return c


cdef inline int _size(const u64* layouts, int words) noexcept nogil:
    """How many layouts the set holds."""
    cdef int i, n = 0
    for i in range(words):
        n += popcount(layouts[i])
    return n


cdef class _Tree:
    """The tables of the game tree of `Values` and `best_won`: per cell, the layouts where it
    is a mine and, per number it may show, those where it shows it."""

    cdef int words
    cdef vector[int] cells  # cell ids, in the caller's order
    cdef vector[int] index  # cell id -> its place in ``cells``
    cdef vector[u64] mine  # cell * words: the layouts where the cell is a mine
    cdef vector[int] starts  # cell -> its first set in ``show`` (one more entry at the end)
    cdef vector[u64] show  # set * words: the layouts where a cell shows one number
    cdef long long nodes, max_nodes
    cdef bint over  # past a budget: every answer from then on is void


cdef struct _Slot:
    u64 hash
    long long start  # the key's first word in the arena; -1: the slot is empty
    int length  # the key's words
    long long value


cdef class _Memo:
    """Values by key (a run of words), in one open-addressed table with the keys laid end
    to end in an arena: no allocation per key, and a probe reads one slot, not a chain."""

    cdef vector[_Slot] slots
    cdef vector[u64] arena
    cdef size_t count

    def __cinit__(self):
        cdef _Slot empty
        empty.start = -1
        self.slots.assign(1 << 16, empty)

    cdef size_t find(self, const u64* key, int length, u64 hash) noexcept:
        """The slot holding ``key``, or the empty slot where it would go."""
        cdef size_t mask = self.slots.size() - 1
        cdef size_t i = hash & mask
        cdef _Slot* slot
        while True:
            slot = &self.slots[i]
            if slot.start < 0 or (
                slot.hash == hash and slot.length == length
                and memcmp(&self.arena[slot.start], key, length * 8) == 0
            ):
                return i
            i = (i + 1) & mask

    cdef void put(self, const u64* key, int length, u64 hash, long long value) noexcept:
        cdef size_t i = self.find(key, length, hash)
        cdef _Slot* slot = &self.slots[i]
        if slot.start >= 0:
            slot.value = value
            return
        slot.hash, slot.start, slot.length, slot.value = hash, self.arena.size(), length, value
        self.arena.insert(self.arena.end(), key, key + length)
        self.count += 1
        if self.count * 2 > self.slots.size():
            self._grow()

    cdef void _grow(self) noexcept:
        cdef vector[_Slot] old
        cdef _Slot empty
        cdef size_t i, j, mask
        empty.start = -1
        old.swap(self.slots)
        self.slots.assign(old.size() * 2, empty)
        mask = self.slots.size() - 1
        for i in range(old.size()):
            if old[i].start >= 0:
                j = old[i].hash & mask
                while self.slots[j].start >= 0:
                    j = (j + 1) & mask
                self.slots[j] = old[i]


cdef inline u64 _hash(const u64* words, int length) noexcept nogil:
    cdef u64 h = 0x9E3779B97F4A7C15ULL
    cdef int i
    for i in range(length):
        h = (h ^ words[i]) * 0xBF58476D1CE4E5B9ULL
        h ^= h >> 31
    return h


cdef class _Wins(_Tree):
    """`_Tree` counting layouts won instead of chances: exact integers (`perfect`).

    A set of layouts is held sparse, as its non-zero words only, each after its place
    (``place, bits, place, bits, ...``): a set deep in the tree holds few layouts, so no
    step costs the whole table's width, and those words are the set's key in the memo.
    Each depth of the search has its own scratch, kept from node to node.

    Pruned as a game tree with chance nodes is (Ballard's *-minimax): a position is asked
    for at least ``need`` layouts won, and one that cannot reach it says so with a bound
    under ``need`` instead of its value; the memo keeps which of the two it holds. Before a
    move's sets are searched, each is bounded cheaply (Ballard's Star2 probing, `_bound`):
    a move whose bounds cannot add up to ``need`` is given up unsearched."""

    cdef _Memo won_memo  # value * 2 + 1 if exact, bound * 2 if not
    cdef double until  # CPU seconds (``clock``) past which the search is over
    cdef long long held, max_bytes  # the memo's bytes (its keys, and about 64 a node)
    cdef vector[vector[u64]] parts_at  # per depth: the sets a move splits into, one by one
    cdef vector[vector[int]] ends_at  # per depth: where each of those sets ends
    cdef vector[vector[pair[int, int]]] risky_at  # per depth: (-safe layouts, cell place)
    cdef vector[vector[u64]] split_at  # per depth: `_opened`'s sets while it splits
    cdef vector[vector[int]] split_ends_at
    cdef vector[vector[int]] live_at  # per depth: the cells a mine in some layouts, not all
    cdef vector[vector[long long]] bounds_at  # per depth: `_bound` of each set of parts_at
    cdef vector[int] frees  # the node's cells safe in every layout that tell something

    cdef void _scratch(self) noexcept:
        cdef size_t depths = self.cells.size() + 3  # a move opened is never tried again below
        self.parts_at.resize(depths)
        self.ends_at.resize(depths)
        self.risky_at.resize(depths)
        self.won_memo = _Memo()
        self.split_at.resize(depths)
        self.split_ends_at.resize(depths)
        self.live_at.resize(depths)
        self.bounds_at.resize(depths)

    cdef long long _won(self, const u64* alive, int m, long long need, int depth) noexcept:
        """How many of the layouts ``alive`` (``m`` words, sparse) a perfect player wins, if
        at least ``need``; else a bound under ``need`` on it (0 once over)."""
        cdef int words = self.words
        cdef int k, c, j, safe, mines, total = 0
        cdef long long result, v, stored, floor
        if self.over:
            return 0  # (every caller unwinds: nothing more is searched)
        for k in range(m):
            total += popcount(alive[2 * k + 1])
        if total <= 1 or total < need:
            return total  # (a bound under need in the second case)
        cdef u64 code = _hash(alive, 2 * m)
        cdef size_t slot = self.won_memo.find(alive, 2 * m, code)
        if self.won_memo.slots[slot].start >= 0:
            stored = self.won_memo.slots[slot].value
            if stored & 1 or stored // 2 < need:
                return stored // 2  # the value, or a bound under what is asked
        else:
            self.held += m * 16 + 64
        self.nodes += 1
        if self.nodes > self.max_nodes or self.held > self.max_bytes or (
            self.nodes % 4096 == 0 and <double>clock() / CLOCKS_PER_SEC > self.until
        ):
            self.over = True
            return 0
        cdef vector[pair[int, int]]* risky = &self.risky_at[depth]
        cdef vector[int]* cells = &self.live_at[depth - 1]  # what may still be unsettled
        cdef vector[int]* live = &self.live_at[depth]
        risky.clear()
        live.clear()
        self.frees.clear()
        for j in range(cells.size()):
            c = deref(cells)[j]
            mines = 0
            for k in range(m):
                mines += popcount(alive[2 * k + 1] & self.mine[c * words + alive[2 * k]])
            if mines == total:
                continue  # a mine in every layout, from here on
            if mines:
                risky.push_back(pair[int, int](mines - total, c))
                live.push_back(c)
            elif self._tells(alive, m, c):
                self.frees.push_back(c)
            # (else safe and telling nothing, from here on)
        if not self.frees.empty():
            self._opened(alive, m, depth)
            result = self._sum(need, depth)
        else:
            sort(risky.begin(), risky.end())  # safest first, then by place
            result = 0  # the most a move was seen to win
            for k in range(risky.size()):
                floor = max(result, need - 1)  # a move matters if it wins more
                safe = -deref(risky)[k].first
                if safe <= floor:
                    break  # cannot win more than where it is safe
                self._parts(alive, m, deref(risky)[k].second, depth)
                v = self._sum(floor + 1, depth)
                if self.over:
                    return 0
                if v > floor:
                    result = v
            if result < need:  # no move wins need: none wins more than need - 1 or its safe
                result = min(need - 1, <long long>-deref(risky)[0].first)
        if self.over:
            return 0
        self.won_memo.put(alive, 2 * m, code, result * 2 + (1 if result >= need else 0))
        return result

    cdef bint _tells(self, const u64* alive, int m, int c) noexcept:
        """Whether cell ``c`` (its place), safe in every layout, shows more than one number."""
        cdef int words = self.words
        cdef int j, k, numbers = 0
        for j in range(self.starts[c], self.starts[c + 1]):
            for k in range(m):
                if alive[2 * k + 1] & self.show[j * words + alive[2 * k]]:
                    numbers += 1
                    if numbers > 1:
                        return True
                    break
        return False

    cdef void _opened(self, const u64* alive, int m, int depth) noexcept:
        """The sets the layouts split into when every cell of `frees` (safe in all of them,
        each showing more than one number) is opened, by the numbers they show, into the
        scratch of ``depth``. Opened together they leave the same sets as opened one by one
        (at no risk, and knowing more never hurts), without a position between to value."""
        cdef int words = self.words
        cdef int c, j, k, t
        cdef size_t i, start
        cdef u64 bits
        cdef vector[u64]* parts = &self.parts_at[depth]
        cdef vector[int]* ends = &self.ends_at[depth]
        cdef vector[u64]* split = &self.split_at[depth]
        cdef vector[int]* split_ends = &self.split_ends_at[depth]
        parts.assign(alive, alive + 2 * m)
        ends.assign(1, 2 * m)
        for t in range(self.frees.size()):
            c = self.frees[t]
            split.clear()
            split_ends.clear()
            start = 0
            for i in range(ends.size()):
                for j in range(self.starts[c], self.starts[c + 1]):
                    for k in range(start, deref(ends)[i], 2):
                        bits = deref(parts)[k + 1] & self.show[j * words + deref(parts)[k]]
                        if bits:
                            split.push_back(deref(parts)[k])
                            split.push_back(bits)
                    if split.size() > (0 if split_ends.empty() else <size_t>split_ends.back()):
                        split_ends.push_back(split.size())
                start = deref(ends)[i]
            parts.swap(deref(split))
            ends.swap(deref(split_ends))

    cdef void _parts(self, const u64* alive, int m, int c, int depth) noexcept:
        """The sets where cell ``c`` (its place) is safe, by the number it shows, into the
        scratch of ``depth``."""
        cdef int words = self.words
        cdef int j, k
        cdef u64 bits
        cdef vector[u64]* parts = &self.parts_at[depth]
        cdef vector[int]* ends = &self.ends_at[depth]
        parts.clear()
        ends.clear()
        for j in range(self.starts[c], self.starts[c + 1]):
            for k in range(m):
                bits = alive[2 * k + 1] & self.show[j * words + alive[2 * k]]
                if bits:
                    parts.push_back(alive[2 * k])
                    parts.push_back(bits)
            if parts.size() > (0 if ends.empty() else <size_t>ends.back()):
                ends.push_back(parts.size())

    cdef long long _sum(self, long long need, int depth) noexcept:
        """The layouts won over the sets in the scratch of ``depth``, if at least ``need``;
        else a bound under it. Each set is first bounded (`_bound`), so that a move that
        cannot reach ``need`` is given up before any of its sets is searched."""
        cdef vector[u64]* parts = &self.parts_at[depth]
        cdef vector[int]* ends = &self.ends_at[depth]
        cdef vector[long long]* bounds = &self.bounds_at[depth]
        cdef int k, start
        cdef long long won = 0, left = 0, v, asked
        bounds.clear()
        start = 0
        for k in range(ends.size()):
            v = self._bound(&deref(parts)[start], (deref(ends)[k] - start) // 2, depth)
            bounds.push_back(v)
            left += v
            start = deref(ends)[k]
        if left < need:
            return left
        start = 0
        for k in range(ends.size()):
            left -= deref(bounds)[k]
            asked = need - won - left  # this set must win so much for the sum to reach need
            v = self._won(&deref(parts)[start], (deref(ends)[k] - start) // 2, asked, depth + 1)
            if self.over:
                return 0
            won += v
            if v < asked:
                return won + left  # under need
            start = deref(ends)[k]
        return won

    cdef long long _bound(self, const u64* alive, int m, int depth) noexcept:
        """A bound over the layouts of ``alive`` won, cheap to find: its value if the memo
        has it, else what its safest move is safe in (all of them when a cell safe in all
        tells something, or when nothing is left to guess). ``depth``: its parent's."""
        cdef int words = self.words
        cdef int k, c, j, mines, total = 0, best = 0
        cdef long long stored
        cdef vector[int]* cells = &self.live_at[depth]
        for k in range(m):
            total += popcount(alive[2 * k + 1])
        if total <= 1:
            return total
        cdef size_t slot = self.won_memo.find(alive, 2 * m, _hash(alive, 2 * m))
        if self.won_memo.slots[slot].start >= 0:
            stored = self.won_memo.slots[slot].value
            return stored // 2  # the value, or a bound on it
        for j in range(cells.size()):
            c = deref(cells)[j]
            mines = 0
            for k in range(m):
                mines += popcount(alive[2 * k + 1] & self.mine[c * words + alive[2 * k]])
            if mines == 0:
                if self._tells(alive, m, c):
                    return total
            elif mines < total and total - mines > best:
                best = total - mines
        return best if best else total


cdef _Wins _rooted(
    list cells, list mine_masks, list shows, int layouts, long long max_nodes, double seconds,
    long long max_bytes, vector[u64]& sparse,
):
    """A `_Wins` over the tables (as `Values` takes them), its budgets set from now, and the
    set of every layout, sparse, into ``sparse``."""
    cdef _Wins tree = _Wins()
    cdef int i, words = max(1, (layouts + 63) // 64)
    cdef vector[u64] alive
    _fill(tree, words, cells, mine_masks, shows, max_nodes)
    tree._scratch()
    for i in range(len(cells)):
        tree.live_at[0].push_back(i)
    tree.until = <double>clock() / CLOCKS_PER_SEC + seconds
    tree.max_bytes = max_bytes
    _append(alive, (1 << <object>layouts) - 1, words)
    for i in range(words):
        if alive[i]:
            sparse.push_back(i)
            sparse.push_back(alive[i])
    return tree


cdef class Values:
    """`perfect`'s count in C++: how many of ``layouts`` equally weighted layouts a perfect
    player wins by opening a cell, move after move in one tree, its memo kept between them.
    Bounded by ``max_nodes`` positions, ``seconds`` of CPU from now and ``max_bytes`` of memo.

    ``cells``: the cell ids in order; ``mine_masks[i]``: the layouts (bits of an int)
    where ``cells[i]`` is a mine; ``shows[i]``: the sets of layouts where it shows each
    number."""

    cdef _Wins tree
    cdef vector[u64] sparse  # every layout, sparse

    def __init__(
        self, list cells, list mine_masks, list shows, int layouts, long long max_nodes,
        double seconds, long long max_bytes,
    ):
        self.tree = _rooted(
            cells, mine_masks, shows, layouts, max_nodes, seconds, max_bytes, self.sparse
        )

    def won(self, cell, long long need):
        """How many layouts opening ``cell`` wins, if at least ``need``; else a bound under
        ``need`` on it. None past a budget (and from then on)."""
        if self.tree.over:
            return None
        self.tree._parts(&self.sparse[0], self.sparse.size() // 2, self.tree.index[cell], 0)
        cdef long long found = self.tree._sum(need, 0)
        return None if self.tree.over else found

    @property
    def positions(self):
        """The positions valued so far."""
        return self.tree.won_memo.count


def best_won(list cells, list mine_masks, list shows, int layouts, long long max_nodes):
    """The move that wins the most of the ``layouts`` equally weighted layouts (pruned, by
    `_Wins`), the first among equals in `endgame._Search`'s order (a cell safe everywhere
    that tells something, else the safest, then by cell id), and how many it wins; None
    past ``max_nodes`` positions. The arguments as `Values` takes them."""
    cdef int i, c, words = max(1, (layouts + 63) // 64)
    cdef long long best_value = -1, v, safe
    cdef vector[u64] sparse
    cdef vector[pair[int, int]] order  # (-safe layouts, cell id)
    cdef _Wins tree = _rooted(
        cells, mine_masks, shows, layouts, max_nodes, 1e300, 1LL << 62, sparse
    )
    for c in range(len(cells)):
        safe = layouts - _size(&tree.mine[c * words], words)
        if safe == 0:
            continue
        if safe == layouts:
            if tree._tells(&sparse[0], sparse.size() // 2, c):
                v = tree._won(&sparse[0], sparse.size() // 2, 0, 1)
                return None if tree.over else (tree.cells[c], v)
            continue
        order.push_back(pair[int, int](<int>-safe, tree.cells[c]))
    sort(order.begin(), order.end())
    best_cell = None
    for i in range(order.size()):
        if -order[i].first <= best_value:
            break  # cannot win more than where it is safe
        tree._parts(&sparse[0], sparse.size() // 2, tree.index[order[i].second], 0)
        v = tree._sum(best_value + 1, 0)
        if tree.over:
            return None
        if v > best_value:
            best_cell, best_value = order[i].second, v
    return None if best_cell is None else (best_cell, best_value)


cdef int _fill(
    _Tree tree, int words, list cells, list mine_masks, list shows, long long max_nodes
) except -1:
    """``tree``'s tables (see `wins`)."""
    cdef int c
    tree.words = words
    tree.max_nodes = max_nodes
    tree.index.assign(max(cells, default=-1) + 1, -1)
    tree.starts.push_back(0)
    for c in range(len(cells)):
        tree.cells.push_back(cells[c])
        tree.index[cells[c]] = c
        _append(tree.mine, mine_masks[c], words)
        for part in shows[c]:
            _append(tree.show, part, words)
        tree.starts.push_back(tree.show.size() // words)
    return 0


cdef int _append(vector[u64]& into, object layouts, int words) except -1:
    """Add the bit set ``layouts`` (an int) to ``into`` as ``words`` machine words."""
    cdef bytes raw = layouts.to_bytes(words * 8, "little")
    cdef size_t at = into.size()
    into.resize(at + words)
    memcpy(&into[at], <const char*>raw, words * 8)
    return 0


def order(list sigs, int start):
    """`counting.programme.order_of` in C++: breadth-first over the supercells (``sigs[i]``: the
    constraints of supercell ``i``) that share a constraint, from ``start`` (-1: the first
    supercell with the fewest constraints), then from each supercell not reached yet."""
    cdef vector[vector[int]] sig_of = sigs
    return list(_order(sig_of, start))


cdef vector[int] _order(vector[vector[int]]& sig_of, int start):
    cdef int n = sig_of.size()
    cdef int i, k, rule, other, root, rules = 0
    cdef vector[vector[int]] users
    cdef vector[char] used, placed
    cdef vector[int] found
    if n == 0:
        return found
    for i in range(n):
        for rule in sig_of[i]:
            if rule >= rules:
                rules = rule + 1
    users.resize(rules)
    for i in range(n):
        for rule in sig_of[i]:
            users[rule].push_back(i)
    used.assign(rules, 0)
    placed.assign(n, 0)
    if start < 0:
        start = 0
        for i in range(1, n):
            if sig_of[i].size() < sig_of[start].size():
                start = i
    for root in range(-1, n):
        if root < 0:
            root = start
        if placed[root]:
            continue
        placed[root] = 1
        k = found.size()
        found.push_back(root)
        while k < <int>found.size():
            for rule in sig_of[found[k]]:
                if used[rule]:
                    continue
                used[rule] = 1
                for other in users[rule]:
                    if not placed[other]:
                        placed[other] = 1
                        found.push_back(other)
            k += 1
        if <int>found.size() == n:
            break
    return found


def width(list order, list sigs, list needs):
    """`counting.programme.width` in C++: the log2 of the most states the programme could hold
    at one point along ``order`` (``sigs[i]``: supercell ``i``'s constraints, ``needs[r]``
    rule ``r``'s mines); the same libm ``log2`` and the same sums in the same order, so the
    same float."""
    cdef vector[int] order_of = order
    cdef vector[vector[int]] sig_of = sigs
    cdef vector[int] need_of = needs
    return _width(order_of, sig_of, need_of)


cdef double _width(vector[int]& order, vector[vector[int]]& sigs, vector[int]& need_of):
    cdef int n = order.size()
    cdef int k, rule
    cdef vector[int] last
    cdef vector[char] opened
    cdef double now = 0.0, widest = 0.0
    last.assign(need_of.size(), -1)
    opened.assign(need_of.size(), 0)
    for k in range(n):
        for rule in sigs[order[k]]:
            last[rule] = k
    for k in range(n):
        for rule in sigs[order[k]]:
            if not opened[rule]:
                opened[rule] = 1
                now += log2(need_of[rule] + 2)
            if last[rule] == k:
                now -= log2(need_of[rule] + 2)
        if now > widest:
            widest = now
    return widest


def part(list rules, list needs, int tracked, long long cap, long long most_bytes,
         int many_starts):
    """`counting.parts.Part._count` for a group that stays one component (nothing settled),
    by `Programme`'s steps: the supercells (``(signature, cells)`` in the order of the
    cells' first rule, as the dicts there make them), `counting.programme.best_order`'s
    order (from several starts past ``many_starts`` supercells, the narrowest by `width`),
    whether ``tracked`` (the rule whose sum is followed, -1: none) is among the signatures,
    and the count
    (`count`): ``(supers, order, tracking, counted)``. ``rules[r]``: rule ``r``'s cells
    (ints), ``needs[r]``: its mines (see `plan`). None when a cell is not an int or the
    count is left to Python (past machine words or ``cap``, or memory past ``most_bytes``).
    """
    cdef int n = len(rules)
    cdef int r, i, c, cells = 0, k, start
    cdef long long cell
    cdef unordered_map[long long, int] id_of  # cell -> its place in order of first rule
    cdef unordered_map[long long, int].iterator at
    cdef vector[vector[int]] sig_of_cell
    cdef vector[int] super_of_cell, size_of, need_of = needs, best, found
    cdef vector[vector[int]] sigs  # per supercell
    cdef vector[vector[int]] members  # per supercell: its cells' places
    cdef vector[vector[int]] orders, ordered
    cdef vector[char] seen
    cdef double narrowest, w
    cdef bint tracking = False
    values = []  # the cells, in order of first rule
    for r in range(n):
        for value in rules[r]:
            if type(value) is not int or (<object>value).bit_length() > 62:
                return None
            cell = value
            at = id_of.find(cell)
            if at == id_of.end():
                id_of[cell] = len(values)
                values.append(value)
                sig_of_cell.push_back(vector[int]())
                sig_of_cell.back().push_back(r)
            else:
                sig_of_cell[deref(at).second].push_back(r)
    # Supercells: cells with the same signature, in the order of their first cell.
    cdef map[vector[int], int] index
    cdef map[vector[int], int].iterator where
    for c in range(sig_of_cell.size()):
        where = index.find(sig_of_cell[c])
        if where == index.end():
            index[sig_of_cell[c]] = sigs.size()
            sigs.push_back(sig_of_cell[c])
            members.push_back(vector[int]())
            members.back().push_back(c)
        else:
            members[deref(where).second].push_back(c)
    for i in range(sigs.size()):
        size_of.push_back(members[i].size())
        cells += members[i].size()
        for r in sigs[i]:
            if r == tracked:
                tracking = True
    supers = [
        (tuple(sigs[i]), [values[c] for c in members[i]]) for i in range(sigs.size())
    ]
    # `counting.programme.best_order`
    best = _order(sigs, -1)
    if <int>sigs.size() >= many_starts:
        found = _order(sigs, best.back())
        orders.push_back(best)
        orders.push_back(found)
        seen.assign(sigs.size(), 0)
        starts = [found.back()]
        for k in range(0, found.size(), max(1, found.size() // 6)):
            starts.append(found[k])
        for start in starts:
            if seen[start]:
                continue
            seen[start] = 1
            if start != found[0]:
                orders.push_back(_order(sigs, start))
        narrowest = _width(orders[0], sigs, need_of)
        best = orders[0]
        for k in range(1, orders.size()):
            w = _width(orders[k], sigs, need_of)
            if w < narrowest:
                narrowest, best = w, orders[k]
    if cells > MAX_CELLS:
        return None
    found.clear()  # now the sizes, in order
    for k in range(best.size()):
        ordered.push_back(sigs[best[k]])
        found.push_back(size_of[best[k]])
    counted = _run(_plan(ordered, found, need_of, tracked), cap, most_bytes)
    if counted is None:
        return None
    return supers, list(best), tracking, counted


def split(list rules):
    """`gauss.split_system`'s groups as labels: for each of ``rules`` (each a set of int
    cells, none empty), the number of its group, groups numbered in the order of their first
    rule; None when a cell is not an int or a rule is empty."""
    cdef int n = len(rules)
    cdef int i, r, root, other, label = 0
    cdef long long cell
    cdef vector[int] parent, labels
    cdef unordered_map[long long, int] owner  # cell -> the first rule that holds it
    cdef unordered_map[long long, int].iterator at
    parent.resize(n)
    for i in range(n):
        parent[i] = i
        if not rules[i]:
            return None
        for value in rules[i]:
            if type(value) is not int or (<object>value).bit_length() > 62:
                return None
            cell = value
            at = owner.find(cell)
            if at == owner.end():
                owner[cell] = i
                continue
            root = _root(parent, i)
            other = _root(parent, deref(at).second)
            if root != other:
                parent[max(root, other)] = min(root, other)  # the root: the group's first rule
    labels.assign(n, -1)
    found = []
    for i in range(n):
        root = _root(parent, i)
        if labels[root] < 0:
            labels[root] = label
            label += 1
        found.append(labels[root])
    return found


cdef inline int _root(vector[int]& parent, int i) noexcept:
    """The root of ``i``'s tree, halving the path on the way."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def pair_risks(list pairs, dict chances, set constrained, double least):
    """`pairs._risks`: for each pair ``(a, b, missing)``, the chance guessed that it becomes a
    50/50 (``2 p (1 - p) p^missing`` as the cells' own floats give it), halved, when no rule
    holds its cells; 0.0 when that guess is under ``least``; None when it must be counted.
    The same floats, operation by operation."""
    cdef double p, q, guess
    cdef bint touched
    found = []
    for a, b, missing in pairs:
        p = chances[a]
        q = chances[b]
        guess = p * (1 - q) + q * (1 - p)
        for cell in missing:
            guess *= <double>chances[cell]
        if guess < least:
            found.append(0.0)
            continue
        touched = a in constrained or b in constrained
        if not touched:
            for cell in missing:
                if cell in constrained:
                    touched = True
                    break
        found.append(None if touched else guess / 2)
    return found


cdef inline bint _credit_one(object value, double risk, vector[double]& credit,
                             vector[char]& seen, vector[int]& order):
    """Add ``risk`` to cell ``value``'s credit (False: not a cell of the table)."""
    if type(value) is not int or not 0 <= value < <Py_ssize_t>credit.size():
        return False
    cdef int cell = value
    credit[cell] += risk
    if not seen[cell]:
        seen[cell] = 1
        order.push_back(cell)
    return True


def pair_credit(list pairs, list risks, dict chances):
    """`pairs._credit`: each cell's summed risk over the pairs it lies in or enables (in the
    pairs' order), at most its chance to be a mine and to be safe; None when a cell is not
    an int from 0 to 2**20, or has no chance."""
    cdef vector[double] credit
    cdef vector[char] seen
    cdef vector[int] order
    cdef double risk, mine, safe, low, total
    cdef int cell, size = 0
    cdef Py_ssize_t i
    for value in chances:
        if type(value) is not int or not 0 <= value < (1 << 20):
            return None
        if value >= size:
            size = value + 1
    credit.assign(size, 0.0)
    seen.assign(size, 0)
    for i in range(len(pairs)):
        risk = risks[i]
        if not risk:
            continue
        a, b, missing = pairs[i]
        if not _credit_one(a, risk, credit, seen, order):
            return None
        if not _credit_one(b, risk, credit, seen, order):
            return None
        for value in missing:
            if not _credit_one(value, risk, credit, seen, order):
                return None
    found = {}
    for cell in order:
        value = chances.get(cell)
        if value is None:
            continue
        mine = value
        total = credit[cell]
        safe = 1 - mine
        low = mine if mine <= safe else safe
        found[cell] = total if total <= low else low
    return found


cdef class PairTable:
    """`pairs.PairIndex` in arrays, for `pairs._pairs`: each pair's two cells and its enablers
    (``enablers[i]``: pair ``i``'s enablers as `_pairs` gives them when no mine walls it)."""

    cdef vector[int] first, second, start, walls
    cdef list enablers
    cdef int size

    def __init__(self, list pairs, list enablers):
        self.enablers = enablers
        self.size = 0
        self.start.push_back(0)
        for a, b, walls in pairs:
            self.first.push_back(a)
            self.second.push_back(b)
            for wall in walls:
                self.walls.push_back(wall)
                self.size = max(self.size, <int>wall + 1)
            self.size = max(self.size, <int>b + 1, <int>a + 1)
            self.start.push_back(self.walls.size())

    def live(self, revealed, mines, int max_missing):
        """`_pairs` (the same tuples in the same order), or None when a cell of ``revealed``
        or ``mines`` is not one of the table's."""
        cdef vector[char] opened, mine
        cdef int i, k, a, b, wall, walled, missing
        cdef bint blocked
        opened.assign(self.size, 0)
        mine.assign(self.size, 0)
        for value in revealed:
            if type(value) is not int or not 0 <= value < self.size:
                return None
            opened[<int>value] = 1
        for value in mines:
            if type(value) is not int or not 0 <= value < self.size:
                return None
            mine[<int>value] = 1
        found = []
        for i in range(self.first.size()):
            a = self.first[i]
            b = self.second[i]
            if opened[a] or opened[b] or mine[a] or mine[b]:
                continue
            blocked = False
            walled = missing = 0
            for k in range(self.start[i], self.start[i + 1]):
                wall = self.walls[k]
                if opened[wall]:
                    blocked = True
                    break
                if mine[wall]:
                    walled += 1
                else:
                    missing += 1
            if blocked or missing > max_missing:
                continue
            if not walled:
                found.append((a, b, self.enablers[i]))
                continue
            cells = []
            for k in range(self.start[i], self.start[i + 1]):
                if not mine[self.walls[k]]:
                    cells.append(self.walls[k])
            found.append((a, b, frozenset(cells)))
        return found


cdef class RegionTable:
    """`endgame.RegionWatch` in arrays: a view's cells (each unknown, revealed or a known
    mine), its neighbour table and the cells of its constraints, for `created`."""

    cdef vector[int] nb_start, nb, rule_start, rule_cells, cell_start, cell_rules
    cdef vector[char] state  # 0 unknown, 1 revealed, 2 a known mine
    cdef vector[char] near, mine, seen, in_group
    cdef int size

    def __init__(self, const int[::1] starts, const int[::1] cells, list rules, revealed, known):
        """``starts``, ``cells``: the neighbour table (`subset.neighbour_table`: cell ``c``'s
        neighbours from ``starts[c]`` to ``starts[c + 1]``); ``rules``: the view's
        constraints' cell sets, in order."""
        cdef int c, r
        cdef vector[vector[int]] owned
        self.size = starts.shape[0] - 1
        self.nb_start.assign(&starts[0], &starts[0] + starts.shape[0])
        if cells.shape[0]:
            self.nb.assign(&cells[0], &cells[0] + cells.shape[0])
        owned.resize(self.size)
        self.rule_start.push_back(0)
        for r in range(len(rules)):
            for c in rules[r]:
                self.rule_cells.push_back(c)
                owned[c].push_back(r)
            self.rule_start.push_back(self.rule_cells.size())
        self.cell_start.push_back(0)
        for c in range(self.size):
            for r in owned[c]:
                self.cell_rules.push_back(r)
            self.cell_start.push_back(self.cell_rules.size())
        self.state.assign(self.size, 0)
        for c in revealed:
            self.state[c] = 1
        for c in known:
            self.state[c] = 2
        self.near.assign(self.size, 0)
        self.mine.assign(self.size, 0)
        self.seen.assign(self.size, 0)
        self.in_group.assign(self.size, 0)

    cdef inline bint _linked(self, int x, int cell) noexcept:
        return x != cell and not self.mine[x] and (
            self.cell_start[x + 1] > self.cell_start[x] or self.near[x]
        )

    cdef inline bint _unknown(self, int x, int cell) noexcept:
        return x != cell and not self.mine[x] and self.state[x] == 0

    def created(self, int cell, around, mines):
        """`RegionWatch.created`: the isolated regions holding a changed cell once ``cell`` is
        opened (its unknown neighbours ``around``) and ``mines`` are known, each sorted, in
        order. A region is a group of linked cells (joined by a constraint, or by the new
        one over ``around``) every unknown neighbour of which is in it."""
        cdef vector[int] seeds, group, touched
        cdef int x, y, o, r, k, j, i, s
        cdef bint isolated
        for x in around:
            self.near[x] = 1
            seeds.push_back(x)
        for x in mines:
            self.mine[x] = 1
        for changed in (cell, *mines):
            x = changed
            for k in range(self.cell_start[x], self.cell_start[x + 1]):
                r = self.cell_rules[k]
                for j in range(self.rule_start[r], self.rule_start[r + 1]):
                    seeds.push_back(self.rule_cells[j])
        for changed in mines:
            x = changed
            for k in range(self.nb_start[x], self.nb_start[x + 1]):
                seeds.push_back(self.nb[k])
        sort(seeds.begin(), seeds.end())
        found = []
        for s in range(seeds.size()):
            x = seeds[s]
            if self.seen[x] or not self._linked(x, cell):
                continue
            group.clear()
            group.push_back(x)
            self.seen[x] = 1
            touched.push_back(x)
            i = 0
            while i < <int>group.size():  # the whole linked group
                x = group[i]
                i += 1
                for k in range(self.cell_start[x], self.cell_start[x + 1]):
                    r = self.cell_rules[k]
                    for j in range(self.rule_start[r], self.rule_start[r + 1]):
                        y = self.rule_cells[j]
                        if y != cell and not self.mine[y] and not self.seen[y]:
                            self.seen[y] = 1
                            touched.push_back(y)
                            group.push_back(y)
                if self.near[x]:
                    for y in around:
                        if y != cell and not self.mine[y] and not self.seen[y]:
                            self.seen[y] = 1
                            touched.push_back(y)
                            group.push_back(y)
            for x in group:
                self.in_group[x] = 1
            isolated = True
            for x in group:
                for k in range(self.nb_start[x], self.nb_start[x + 1]):
                    o = self.nb[k]
                    if self._unknown(o, cell) and not self.in_group[o]:
                        isolated = False
                        break
                if not isolated:
                    break
            for x in group:
                self.in_group[x] = 0
            if isolated:
                sort(group.begin(), group.end())
                found.append([x for x in group])
        for x in touched:
            self.seen[x] = 0
        for x in around:
            self.near[x] = 0
        for x in mines:
            self.mine[x] = 0
        found.sort()
        return found
