#!/usr/bin/python3
"""gen_shadow.py — shadow.txt: the chains of issue 32 item 1 with the
errors shadow(f, x) must report, computed exactly (mpmath at 300 bits),
for tests/shadow.sh.

Each chain is written twice here: as nnpad code, and as a list of ops on
exact values.  For every op:
  real        the op's exact result on the real (rounded) inputs, rounded
              once to nearest even in its dtype (a sum under :accumulate
              same rounds after every addition, left to right)
  local       |real - exact op on the real inputs| / ulp
  accumulated |real - exact op on the shadows (every op exact, casts
              identities)| / ulp
ulp = the spacing above |r| rounded to the dtype (nnpad's dtype_ulp,
numpy.spacing), ulp(0) the smallest subnormal; an element whose exact value
rounds beyond the dtype has no finite error (compare's rule); where the
value is inf or NaN in fp64 the same inf or NaN is no error and any other
result an infinite one; a finite value turned inf or NaN is an infinite
error.  .first: the first op whose
accumulated error passes 4 ulps or is infinite.  .cause: for each op up
to .first, an otherwise exact run with that op alone rounded (an
elementwise op: its exact value rounded once; a reduction: its own error
on its real inputs, real - exact, added to its exact value); the op with
the largest error at .first, and that error (.cause.at_first).

nnpad's shadow is fp64, not exact: the expected values are exact and
shadow.sh allows a relative difference of 1e-6 (fp64's 2^-53 relative
error is below 1e-9 ulps of fp32 or fp16 here).  Run:

    /usr/bin/python3 tests/refdata/gen_shadow.py

mpmath 1.2.1, CPython 3.11.2.
"""
import os
import mpmath
import numpy
from mpmath import mpf

mpmath.mp.prec = 300
INF = mpf('inf')
FP64_MAX = (2 - mpf(2) ** -52) * mpf(2) ** 1023

# (stored mantissa bits, emin of normals, largest finite)
FMT = {
    'fp16': (10, -14, mpf(65504)),
    'fp32': (23, -126, (2 - mpf(2) ** -23) * mpf(2) ** 127),
}


def rnd(a, dt):
    """a rounded once to nearest even in dt (inf beyond the largest)"""
    man, emin, mx = FMT[dt]
    if mpmath.isinf(a) or mpmath.isnan(a) or a == 0:
        return a
    s = -1 if a < 0 else 1
    a = abs(a)
    e = max(int(mpmath.floor(mpmath.log(a, 2))), emin)
    # floor(log2) at 300 bits is exact here except at powers of two, fixed:
    while mpf(2) ** e > a and e > emin:
        e -= 1
    while mpf(2) ** (e + 1) <= a:
        e += 1
    q = a / mpf(2) ** (e - man)
    n = mpmath.floor(q)
    f = q - n
    if f > 0.5 or (f == 0.5 and int(n) % 2 == 1):
        n += 1
    v = n * mpf(2) ** (e - man)
    if v > mx:
        return s * INF
    return s * v


def ulp(r, dt):
    """spacing above |r| rounded to dt; None when that is not finite"""
    man, emin, mx = FMT[dt]
    a = abs(rnd(r, dt))
    if mpmath.isinf(a):
        return None
    if a == 0:
        return mpf(2) ** (emin - man)
    e = max(int(mpmath.floor(mpmath.log(a, 2))), emin)
    while mpf(2) ** e > a and e > emin:
        e -= 1
    while mpf(2) ** (e + 1) <= a:
        e += 1
    return mpf(2) ** (e - man)


def err(real, ref, dt):
    """largest |real - ref| / ulp(ref) over the elements, and its index"""
    best, at = mpf(0), -1
    for i, (v, r) in enumerate(zip(real, ref)):
        # where the value is NaN or inf in fp64 (the shadow's dtype): no
        # error if the result is the same NaN or inf, an infinite one otherwise
        rr = r if mpmath.isnan(r) or abs(r) <= FP64_MAX else mpmath.sign(r) * INF
        if mpmath.isnan(rr) and mpmath.isnan(v) or mpmath.isinf(rr) and v == rr:
            continue
        if mpmath.isinf(v) or mpmath.isnan(v) or mpmath.isinf(rr) or mpmath.isnan(rr):
            if not mpmath.isinf(best):
                best, at = INF, i
            continue
        u = ulp(r, dt)
        if u is None:
            continue
        q = abs(v - r) / u
        if q > best:
            best, at = q, i
    return best, at


def run(ops, inputs, dt_of, cause_round=None, exact=False):
    """the chain on inputs (name -> list of values): each op
    (name, dtype, args, f, kind) with f on lists of exact values.
    exact: every op exact (the shadow) except op cause_round, rounded
    alone; else the real run.  Returns (values per op, local refs)."""
    vals, locs = dict(inputs), {}
    out = []
    for k, (name, dt, args, f, kind) in enumerate(ops):
        a = [vals[x] for x in args]
        ex = f(*a)
        if exact and k != cause_round:
            v = ex
        elif kind == 'seq':
            # left to right, rounding after each addition (:accumulate same)
            (xs,) = a
            acc = mpf(0)
            for x in xs:
                acc = rnd(acc + x, dt)
            v = [acc]
            if exact:   # the reduction's own error on its real inputs, added
                (rxs,) = [real_vals[x] for x in args]
                racc = mpf(0)
                for x in rxs:
                    racc = rnd(racc + x, dt)
                v = [ex[0] + (racc - sum(rxs))]
        elif kind == 'red':
            # fp32 accumulation of fp16 values, exact here, rounded once
            v = [rnd(x, dt) for x in ex]
            if exact:
                rxs = [real_vals[x] for x in args]
                rex = f(*rxs)
                rv = [rnd(x, dt) for x in rex]
                v = [e + (r - l) if not mpmath.isinf(r) else r for e, r, l in zip(ex, rv, rex)]
        else:
            v = [rnd(x, dt) for x in ex]
        vals[f'%{k}'] = v
        out.append(v)
        locs[k] = ex
    return out, vals


def chain(ops, inputs):
    global real_vals
    real, rv = run(ops, inputs, None)
    real_vals = rv
    rows = []
    # local: the exact op on the real inputs
    for k, (name, dt, args, f, kind) in enumerate(ops):
        loc = f(*[rv[x] for x in args])
        rows.append([name, dt, err(real[k], loc, dt)])
    shadow, _ = run(ops, inputs, None, exact=True)
    for k, (name, dt, args, f, kind) in enumerate(ops):
        rows[k].append(err(real[k], shadow[k], dt))
    first = next((k for k, r in enumerate(rows) if r[3][0] > 4 or mpmath.isinf(r[3][0])), None)
    cause = None
    if first is not None:
        best = mpf(-1)
        for j in range(first + 1):
            one, _ = run(ops, inputs, None, cause_round=j, exact=True)
            e, _ = err(one[first], shadow[first], ops[first][1])
            if e > best:
                best, cause = e, j
        cause = (cause, best)
    return rows, first, cause


def num(x):
    if mpmath.isinf(x):
        return 'inf'
    return mpmath.nstr(x, 17, min_fixed=-30, max_fixed=30)


def emit(out, name, code, ops, inputs):
    rows, first, cause = chain(ops, inputs)
    out.append(f'case {name}')
    out += ['> ' + line for line in code]
    out.append(f'= len(s.ops) {len(rows)}')
    for k, (op, dt, (le, li), (ae, ai)) in enumerate(rows):
        out.append(f'= s.ops[{k}].op {op}')
        out.append(f'= s.ops[{k}].dtype {dt}')
        out.append(f'= s.ops[{k}].local {num(le)}')
        out.append(f'= s.ops[{k}].accumulated {num(ae)}')
        if ae != 0 and len(inputs_len(ops, k, inputs)) > 1:
            out.append(f'= s.ops[{k}].index {ai}')
    if first is None:
        out.append('= s.first None')
        out.append('= s.cause None')
    else:
        out.append(f'= s.first.op {rows[first][0]}')
        out.append(f'= s.cause.op {rows[cause[0]][0]}')
        out.append(f'= s.cause.at_first {num(cause[1])}')


def inputs_len(ops, k, inputs):
    real, _ = run(ops, inputs, None)
    return real[k]


def main():
    out = ['# written by tests/refdata/gen_shadow.py: do not edit',
           '# case NAME, "> " nnpad code (s = the shadow record), "= EXPR EXPECTED"']
    x = rnd(mpf(1) / 10000, 'fp16')   # fp16(0.0001)
    emit(out, 'one_plus_x', ['def f(x) { return (1 + x) - 1 }', 's = shadow(f, fp16(0.0001))'],
         [('add', 'fp16', ['x'], lambda a: [1 + v for v in a], 'ew'),
          ('subtract', 'fp16', ['%0'], lambda a: [v - 1 for v in a], 'ew')],
         {'x': [x]})
    ones = [mpf(1)] * 3000
    emit(out, 'sum_fp16_ones', [':accumulate same', 'def f(x) { return sum(x) / 3000 }',
                                's = shadow(f, ones(3000, dtype=fp16))'],
         [('sum', 'fp16', ['x'], lambda a: [sum(a)], 'seq'),
          ('divide', 'fp16', ['%0'], lambda a: [v / 3000 for v in a], 'ew')],
         {'x': ones})
    xs = [mpf(8), mpf(9), mpf(10), mpf(11)]
    emit(out, 'softmax_no_max', ['def f(x) {', '  e = exp(x)', '  return e / sum(e)', '}',
                                 's = shadow(f, fp16([8, 9, 10, 11]))'],
         [('exp', 'fp16', ['x'], lambda a: [mpmath.exp(v) for v in a], 'ew'),
          ('sum', 'fp16', ['%0'], lambda a: [sum(a)], 'red'),
          ('divide', 'fp16', ['%0', '%1'], lambda a, b: [v / b[0] for v in a], 'ew')],
         {'x': xs})
    # a cast inside f: rounded in the real run, an identity in the shadow
    x32 = rnd(mpf(1) / 10, 'fp32')
    emit(out, 'cast_in_f', ['def f(x) { return fp16(x) * 1000 }', 's = shadow(f, fp32(0.1))'],
         [('fp16', 'fp16', ['x'], lambda a: list(a), 'ew'),
          ('multiply', 'fp16', ['%0'], lambda a: [v * 1000 for v in a], 'ew')],
         {'x': [x32]})
    z = [mpf(20)]
    emit(out, 'logistic_from_probabilities', ['def f(z) { return -log(1 - sigmoid(z)) }', 's = shadow(f, fp32(20))'],
         [('sigmoid', 'fp32', ['z'], lambda a: [1 / (1 + mpmath.exp(-v)) for v in a], 'ew'),
          ('subtract', 'fp32', ['%0'], lambda a: [1 - v for v in a], 'ew'),
          ('log', 'fp32', ['%1'], lambda a: [mpmath.log(v) if v > 0 else -INF for v in a], 'ew'),
          ('negative', 'fp32', ['%2'], lambda a: [-v for v in a], 'ew')],
         {'z': z})
    emit(out, 'logistic_from_logits', ['def f(z) { return softplus(z) }', 's = shadow(f, fp32(20))'],
         [('softplus', 'fp32', ['z'], lambda a: [mpmath.log(1 + mpmath.exp(v)) for v in a], 'ew')],
         {'z': z})
    # inside grad: the backward pass's ops are rows too, each marked with
    # the forward op whose rule ran it; sigmoid's rule with a gradient of
    # exactly 1 is sigmoid_deriv(x) alone (correctly rounded in fp16)
    sig = lambda v: 1 / (1 + mpmath.exp(-v))
    xs3 = [mpf(1), mpf(2), mpf(3)]
    emit(out, 'grad_of_sum_sigmoid', ['def g(x) { return sum(sigmoid(x)) }', 's = shadow(grad(g), fp16([1, 2, 3]))'],
         [('sigmoid', 'fp16', ['x'], lambda a: [sig(v) for v in a], 'ew'),
          ('sum', 'fp16', ['%0'], lambda a: [sum(a)], 'red'),
          ('add', 'fp16', ['x'], lambda a: [mpf(1) for v in a], 'ew'),
          ('sigmoid_deriv', 'fp16', ['x'], lambda a: [sig(v) * (1 - sig(v)) for v in a], 'ew')],
         {'x': xs3})
    out.append('= s.ops[2].grad_of sum')
    out.append('= s.ops[3].grad_of sigmoid')
    # a traced function: its ops run one by one under shadow (the graph
    # would fuse this chain into one kernel)
    xs = [rnd(mpf(1) / 1000, 'fp16'), mpf(1), mpf(2)]
    emit(out, 'traced_sigmoid_chain', ['def f(x) { return sigmoid(x) * 2 - 1 }', 'tf = trace(f)', 'y = tf(fp16([1, 2]))',
                                       's = shadow(tf, fp16([0.001, 1, 2]))'],
         [('sigmoid', 'fp16', ['x'], lambda a: [sig(v) for v in a], 'ew'),
          ('multiply', 'fp16', ['%0'], lambda a: [2 * v for v in a], 'ew'),
          ('subtract', 'fp16', ['%1'], lambda a: [v - 1 for v in a], 'ew')],
         {'x': xs})
    # a fused chain whose output has less error than its first op: the
    # drawing's fused node says its output's (the add's)
    emit(out, 'traced_exp_plus', ['def f(x) { return exp(x) + 1000 }', 'tf = trace(f)', 'y = tf(fp16([1, 2]))',
                                  's = shadow(tf, fp16([1, 3]))'],
         [('exp', 'fp16', ['x'], lambda a: [mpmath.exp(v) for v in a], 'ew'),
          ('add', 'fp16', ['%0'], lambda a: [v + 1000 for v in a], 'ew')],
         {'x': [mpf(1), mpf(3)]})
    # control flow follows the real run: a loop that ends in fp16 when
    # 1 + x rounds to 1 (in fp64 it would run 42 more times); the last
    # comparison differs from its shadow (.first), and the add whose
    # rounding made 1 + x equal 1 is .cause
    lrows, xl, n = [], mpf(1), 0
    while True:
        ex = 1 + xl
        real = rnd(ex, 'fp16')
        lrows.append(('add', err([real], [ex], 'fp16')[0]))
        lrows.append(('not_equal', None))
        if real == 1:
            break
        lrows.append(('divide', mpf(0)))   # halving is exact here
        xl = rnd(xl / 2, 'fp16')
        lrows.append(('add', mpf(0)))      # n + 1 in int64
        n += 1
    lfirst = len(lrows) - 1
    lcause = max(range(lfirst), key=lambda k: (lrows[k][0] == 'add' and lrows[k][1] or 0, -k))
    out.append('case loop_ends_as_in_fp16')
    out += ['> def f(x) {', '>   n = 0', '>   while 1 + x != 1 { x = x / 2', '>     n = n + 1 }', '>   return n', '> }',
            '> s = shadow(f, fp16(1))']
    out.append(f'= len(s.ops) {len(lrows)}')
    out.append(f'= s.result {n}')
    out.append(f'= s.first.op not_equal')
    out.append(f'= s.first.accumulated differs')
    out.append(f'= s.cause.op add')
    out.append(f'= s.cause.local {num(lrows[lcause][1])}')
    out.append('= s.cause.at_first differs')
    out.append(f'= s.ops[{lcause}].op add')
    # :policy mixed: a model that computes in fp16 (weights fp32, cast on
    # use) against the model all in fp64 (the policy's casts to fp16 are
    # roundings, not part of the fp64 twin).  The weights make x @ W + b =
    # 1 and 2 t - 1 exact in fp16: the real run rounds tanh(1) once.
    t = rnd(mpmath.tanh(1), 'fp16')
    real, ref = 2 * t - 1, 2 * mpmath.tanh(1) - 1
    e, _ = err([real], [ref], 'fp16')
    out.append('case mixed_policy_model')
    out += ['> :policy mixed', '> d1 = dense(2, 1, activation="tanh")', '> d1.W = fp32([[0.375], [0.25]])',
            '> d1.b = fp32([0.125])', '> d2 = dense(1, 1)', '> d2.W = fp32([[2]])', '> d2.b = fp32([-1])',
            '> m = sequential(d1, d2)', '> s = shadow(m, fp32([[1, 2]]), ulps=0)']
    out.append('= len(s.ops) 1')
    out.append('= s.ops[0].op sequential_apply')
    out.append('= s.ops[0].dtype fp16')
    out.append(f'= s.ops[0].accumulated {num(e)}')
    out.append('= s.first.op sequential_apply')
    out.append(f'= fp64(s.result[0,0]) {num(real)}')
    # grad of a loss whose argument is a layer: params(d), whose result is
    # a list (no row), is counted apart from the rows, and the .cause
    # reruns find .first again (dense_apply: x @ W + b rounded in fp32)
    b = rnd(mpf(1) / 10, 'fp32')
    real, ref = rnd(mpf(7) / 8 + b, 'fp32'), mpf(7) / 8 + b
    e, _ = err([real], [ref], 'fp32')
    out.append('case grad_of_layer_loss')
    out += ['> d = dense(2, 1)', '> d.W = fp32([[0.375], [0.25]])', '> d.b = fp32([0.1])',
            '> def loss3(d) { return sum(d(fp32([[1, 2]])) * 0.1) }', '> s = shadow(grad(loss3), d, ulps=0)']
    out.append('= s.first.op dense_apply')
    out.append(f'= s.first.accumulated {num(e)}')
    out.append('= s.cause.op dense_apply')
    out.append(f'= s.cause.at_first {num(e)}')
    # flip(x, bit) is not a rounding: its real result starts the shadow
    # (as a typed literal), so the multiply after it has its own error only
    v = mpf(float(numpy.array([numpy.float16(1).view(numpy.uint16) ^ 1], numpy.uint16).view(numpy.float16)[0]))
    real, ref = rnd(3 * v, 'fp16'), 3 * v
    e, _ = err([real], [ref], 'fp16')
    out.append('case flip_starts_the_shadow')
    out += ['> def f(x) { return flip(x, 0) * 3 }', '> s = shadow(f, fp16(1))']
    out.append('= s.ops[0].op flip')
    out.append('= s.ops[0].accumulated 0')
    out.append('= s.ops[1].op multiply')
    out.append(f'= s.ops[1].local {num(e)}')
    out.append(f'= s.ops[1].accumulated {num(e)}')
    out.append('= s.first None')
    out.append('case eager_flip')
    out += ['> :shadow on', '> y = flip(fp16(1), 0)', '> z = y * 3']
    out.append('! y 0')
    out.append('! z %.2f' % float(e))
    # .first: a result turned inf where fp64 is finite is an infinite
    # error; a NaN where fp64 gives NaN too (sqrt(-1)) is none
    emit(out, 'turns_inf', ['def f(x) { return x * x - 1 }', 's = shadow(f, fp16(300))'],
         [('multiply', 'fp16', ['x', 'x'], lambda a, b: [u * v for u, v in zip(a, b)], 'ew'),
          ('subtract', 'fp16', ['%0'], lambda a: [v - 1 for v in a], 'ew')],
         {'x': [mpf(300)]})
    # and a finite result where fp64 overflows: 2048 + 1 rounds to 2048 in
    # fp16, so y is 0 there and 1 in fp64, and exp(1000 y) is 1 against inf
    emit(out, 'finite_where_fp64_overflows', ['def f(x) { return exp(((x + 1) - x) * 1000) }', 's = shadow(f, fp16(2048))'],
         [('add', 'fp16', ['x'], lambda a: [v + 1 for v in a], 'ew'),
          ('subtract', 'fp16', ['%0', 'x'], lambda a, b: [u - v for u, v in zip(a, b)], 'ew'),
          ('multiply', 'fp16', ['%1'], lambda a: [v * 1000 for v in a], 'ew'),
          ('exp', 'fp16', ['%2'], lambda a: [mpmath.exp(v) for v in a], 'ew')],
         {'x': [mpf(2048)]})
    out.append('case same_nan_is_no_error')
    out += ['> def q(x) { return sqrt(x) }', '> s = shadow(q, fp16(-1))']
    out.append('= s.ops[0].accumulated 0')
    out.append('= s.first None')
    # :shadow on: the same chain typed as statements; y keeps its shadow
    # from the statement that made it (x's starts at the typed literal)
    rows, first, cause = chain(
        [('add', 'fp16', ['x'], lambda a: [1 + v for v in a], 'ew'),
         ('subtract', 'fp16', ['%0'], lambda a: [v - 1 for v in a], 'ew')], {'x': [x]})
    out.append('case eager_one_plus_x')
    out += ['> :shadow on', '> x = fp16(0.0001)', '> y = (1 + x) - 1']
    out.append('! x 0')
    out.append('! y %.2f' % float(rows[1][3][0]))
    out.append('! print(y) %.2f' % float(rows[1][3][0]))
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'shadow.txt')
    tmp = path + '.tmp'
    with open(tmp, 'w') as fh:
        fh.write('\n'.join(out) + '\n')
    os.replace(tmp, path)


if __name__ == '__main__':
    main()
