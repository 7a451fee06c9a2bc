"""Expressions of a block description (widths, derived values, register
values from parameters): integers, the names of parameters and derived
values, + - * / (integer division), parentheses, clog2(x) (SystemVerilog's
$clog2) and max(a, b). One parse, rendered as SystemVerilog, as C++ and
evaluated in Python, so the three cannot disagree. A library of
scripts/blockgen.py."""
import re

TOKEN = re.compile(r"\s*(?:([A-Za-z_][A-Za-z0-9_]*)|(\d+)|([-+*/(),]))")
FUNCS = {"clog2": 1, "max": 2}
PREC = {"+": 1, "-": 1, "*": 2, "/": 2}


class ExprError(Exception):
    pass


def parse(text, names):
    """The tree of text; names: the parameter and derived names it may use."""
    s = str(text)
    toks, pos = [], 0
    while pos < len(s):
        m = TOKEN.match(s, pos)
        if not m or m.end() == pos:
            if s[pos:].strip() == "":
                break
            raise ExprError("%r: unexpected %r; write integers, names, + - * / ( ), clog2(x), max(a, b)"
                            % (s, s[pos:].strip()[:10]))
        toks.append(m.group(1) or m.group(2) or m.group(3))
        pos = m.end()
    toks.append(None)
    at = [0]

    def peek():
        return toks[at[0]]

    def take(want=None):
        t = toks[at[0]]
        if want is not None and t != want:
            raise ExprError("%r: expected %r, found %r" % (s, want, t or "the end"))
        at[0] += 1
        return t

    def atom():
        t = take()
        if t is None:
            raise ExprError("%r: ends too early" % s)
        if t == "(":
            e = expr()
            take(")")
            return e
        if t.isdigit():
            return ("num", int(t))
        if t in FUNCS:
            take("(")
            args = [expr()]
            while peek() == ",":
                take(",")
                args.append(expr())
            take(")")
            if len(args) != FUNCS[t]:
                raise ExprError("%r: %s takes %d argument(s)" % (s, t, FUNCS[t]))
            return ("call", t, args)
        if re.match(r"^[A-Z][A-Z0-9_]*$", t):
            if t not in names:
                raise ExprError("%r: %s is not a parameter or derived value; known: %s"
                                % (s, t, ", ".join(sorted(names))))
            return ("name", t)
        raise ExprError("%r: unexpected %r" % (s, t))

    def expr(level=1):
        if level > 2:
            return atom()
        e = expr(level + 1)
        while peek() in PREC and PREC[peek()] == level:
            op = take()
            e = ("bin", op, e, expr(level + 1))
        return e

    tree = expr()
    if peek() is not None:
        raise ExprError("%r: unexpected %r" % (s, peek()))
    return tree


def names_in(tree):
    if tree[0] == "name":
        return {tree[1]}
    if tree[0] == "bin":
        return names_in(tree[2]) | names_in(tree[3])
    if tree[0] == "call":
        return set().union(*[names_in(a) for a in tree[2]])
    return set()


def _render(tree, name, call, prec=0, right=False):
    kind = tree[0]
    if kind == "num":
        return str(tree[1])
    if kind == "name":
        return name(tree[1])
    if kind == "call":
        return call(tree[1], [_render(a, name, call) for a in tree[2]])
    op = tree[1]
    p = PREC[op]
    text = "%s %s %s" % (_render(tree[2], name, call, p), op,
                         _render(tree[3], name, call, p, right=True))
    if p < prec or (right and p == prec):
        text = "(%s)" % text
    return text


def sv(tree):
    def call(f, a):
        if f == "clog2":
            return "$clog2(%s)" % a[0]
        return "((%s) > (%s) ? (%s) : (%s))" % (a[0], a[1], a[0], a[1])
    return _render(tree, lambda n: n, call)


def cpp(tree, name):
    """C++ of the tree; name(N): the C++ of a parameter or derived value."""
    def call(f, a):
        if f == "clog2":
            return "clog2(%s)" % a[0]
        return "((%s) > (%s) ? (%s) : (%s))" % (a[0], a[1], a[0], a[1])
    return _render(tree, name, call)


def value(tree, env):
    kind = tree[0]
    if kind == "num":
        return tree[1]
    if kind == "name":
        return env[tree[1]]
    if kind == "call":
        a = [value(x, env) for x in tree[2]]
        if tree[1] == "clog2":
            return 0 if a[0] <= 1 else (a[0] - 1).bit_length()
        return max(a)
    a, b = value(tree[2], env), value(tree[3], env)
    return {"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else 0}[tree[1]]


def is_const(tree):
    return not names_in(tree)
