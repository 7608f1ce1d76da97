"""Differential generators for geo (issue 15): GEOADD (NX XX CH) GEOPOS GEODIST GEOHASH
GEORADIUS GEORADIUSBYMEMBER (and _RO) GEOSEARCH GEOSEARCHSTORE (FROMMEMBER FROMLONLAT
BYRADIUS BYBOX ASC DESC COUNT [ANY] WITHCOORD WITHDIST WITHHASH STORE STOREDIST), plus
ZRANGE/ZSCORE/ZREM on the same keys, so the geohash scores are compared too.

Positions cluster around a few centres (searches find something), with some anywhere on
the map, near the poles and on the map's edges (one member per edge, so that no two members
are ever at the same distance: see docs/commands.md on COUNT and ties). Replies whose order
Redis leaves unspecified (no ASC/DESC and no COUNT, or COUNT ANY) are compared as sets."""

from differential import Cmd, family, generator
from diffgen_foundation import wrong_arity

family("geo", ("GEOPOS", "__probe__"))

GEO_ARITY = {"GEOADD": -5, "GEOPOS": -2, "GEODIST": -4, "GEOHASH": -2, "GEORADIUS": -6,
             "GEORADIUS_RO": -6, "GEORADIUSBYMEMBER": -5, "GEORADIUSBYMEMBER_RO": -5,
             "GEOSEARCH": -7, "GEOSEARCHSTORE": -8}

CENTRES = [(13.361389, 38.115556), (-73.9857, 40.7484), (2.3522, 48.8566),
           (151.2093, -33.8688), (0.0, 0.0), (179.9, 10.0), (-179.9, -10.0),
           (25.0, 84.5), (-45.0, -84.9)]
EDGES = [("180", "85.05112878"), ("-180", "-85.05112878"), ("180", "0"), ("0", "-85.05112878")]
BAD_COORDS = [("200", "10"), ("10", "86"), ("abc", "1"), ("1", ""), ("inf", "0"),
              ("nan", "0"), ("1e400", "0"), ("-180.0001", "0")]
RADII = ["0", "1", "50", "500", "5000", "50000", "200000", "800", "2500000", "20000000"]
UNITS = ["m", "km", "ft", "mi", "M", "KM"]
METERS = {"m": 1, "km": 1000, "ft": 0.3048, "mi": 1609.34}


def gkey(g):
    return g.key("geo")


def member(g):
    return g.member("geo")


def position(g):
    r = g.rng.random()
    if r < 0.7:
        lon, lat = g.choice(CENTRES)
        spread = g.choice([0.01, 0.1, 1.0, 3.0])
        lon = max(-180.0, min(180.0, lon + g.rng.uniform(-spread, spread)))
        lat = max(-85.05, min(85.05, lat + g.rng.uniform(-spread, spread)))
        return ["%.6f" % lon, "%.6f" % lat]
    if r < 0.97:
        return ["%.7f" % g.rng.uniform(-180, 180), "%.7f" % g.rng.uniform(-85.05, 85.05)]
    return list(g.choice(EDGES))


def coords(g):
    if g.chance(0.03):
        return list(g.choice(BAD_COORDS))
    return position(g)


def radius(g):
    if g.chance(0.04):
        return [g.choice(["-1", "x", "", "inf"]), g.choice(UNITS)]
    u = g.choice(UNITS) if g.chance(0.97) else g.choice(["parsec", ""])
    scale = METERS.get(u.lower(), 1)
    return ["%g" % (float(g.choice(RADII)) / scale * g.rng.uniform(0.5, 2)), u]


def box(g):
    if g.chance(0.04):
        return [g.choice(["-1", "x", "10"]), g.choice(["-1", "y", "10"]), g.choice(UNITS)]
    u = g.choice(UNITS)
    scale = METERS[u.lower()]
    w = float(g.choice(RADII)) * 2 / scale * g.rng.uniform(0.3, 2)
    h = float(g.choice(RADII)) * 2 / scale * g.rng.uniform(0.3, 2) if g.chance(0.7) else w
    return ["%g" % w, "%g" % h, u]


def maybe_arity(g, name):
    if g.chance(0.02):
        return Cmd(*wrong_arity(g, name, GEO_ARITY[name]))
    return None


@generator("geo", "GEOADD", weight=4)
def _geoadd(g):
    opts = []
    if g.chance(0.3):
        opts += [g.choice(["NX", "XX", "nx", "xx"])]
    if g.chance(0.3):
        opts += ["CH"]
    if g.chance(0.02):
        opts += [g.choice(["NX", "XX", "GT"])]
    args = ["GEOADD", gkey(g)] + g.shuffled(opts)
    for _ in range(g.randint(1, 4)):
        c = coords(g)
        # A map edge is one position: only its own member goes there, so no two members
        # tie in distance (with COUNT, Redis's partial sort orders ties its own way).
        m = "edge%d" % EDGES.index(tuple(c)) if tuple(c) in EDGES else member(g)
        args += c + [m]
    if g.chance(0.02):
        args.pop()
    return maybe_arity(g, "GEOADD") or args


@generator("geo", "GEOPOS", weight=1.5)
def _geopos(g):
    return maybe_arity(g, "GEOPOS") or ["GEOPOS", gkey(g)] + [member(g) for _ in
                                                                range(g.randint(0, 4))]


@generator("geo", "GEOHASH")
def _geohash(g):
    return maybe_arity(g, "GEOHASH") or ["GEOHASH", gkey(g)] + [member(g) for _ in
                                                                  range(g.randint(0, 4))]


@generator("geo", "GEODIST", weight=1.5)
def _geodist(g):
    args = ["GEODIST", gkey(g), member(g), member(g)]
    if g.chance(0.6):
        args.append(g.choice(UNITS + ["parsec"]) if g.chance(0.97) else "x")
    if g.chance(0.02):
        args.append("extra")
    return maybe_arity(g, "GEODIST") or args


def result_options(g, store_allowed):
    """Options shared by every search; returns (options, unspecified_order)."""
    opts = []
    sort = None
    if g.chance(0.45):
        sort = g.choice(["ASC", "DESC", "asc"])
        opts.append([sort])
    count = any_ = False
    if g.chance(0.4):
        n = str(g.randint(1, 6)) if g.chance(0.95) else g.choice(["0", "-1", "x"])
        opts.append(["COUNT", n])
        count = True
        if g.chance(0.4):
            opts.append(["ANY"])
            any_ = True
    elif g.chance(0.02):
        opts.append(["ANY"])
    for w in ("WITHDIST", "WITHCOORD", "WITHHASH"):
        if g.chance(0.3):
            opts.append([w])
    if store_allowed and g.chance(0.15):
        opts.append([g.choice(["STORE", "STOREDIST"]), g.key("geo")])
    if g.chance(0.02):
        opts.append([g.choice(["FOO", "COUNT", "STORE"])])
    flat = []
    for o in g.shuffled(opts):
        flat += o
    unspecified = sort is None and (not count or any_)
    return flat, unspecified


def search_cmd(g, args, unspecified):
    return Cmd(*args, mode="sorted" if unspecified else None)


@generator("geo", "GEORADIUS", weight=3)
def _georadius(g):
    name = g.choice(["GEORADIUS", "GEORADIUS_RO"])
    opts, unspecified = result_options(g, name == "GEORADIUS")
    args = [name, gkey(g)] + coords(g) + radius(g) + opts
    return maybe_arity(g, name) or search_cmd(g, args, unspecified)


@generator("geo", "GEORADIUSBYMEMBER", weight=3)
def _georadiusbymember(g):
    name = g.choice(["GEORADIUSBYMEMBER", "GEORADIUSBYMEMBER_RO"])
    opts, unspecified = result_options(g, name == "GEORADIUSBYMEMBER")
    args = [name, gkey(g), member(g)] + radius(g) + opts
    return maybe_arity(g, name) or search_cmd(g, args, unspecified)


@generator("geo", "GEOSEARCH", weight=4)
def _geosearch(g):
    store = g.chance(0.3)
    name = "GEOSEARCHSTORE" if store else "GEOSEARCH"
    opts, unspecified = result_options(g, False)
    parts = []
    if g.chance(0.97):
        parts.append(["FROMMEMBER", member(g)] if g.chance(0.5) else ["FROMLONLAT"] + coords(g))
    if g.chance(0.97):
        parts.append(["BYRADIUS"] + radius(g) if g.chance(0.5) else ["BYBOX"] + box(g))
    if g.chance(0.02):
        parts.append(g.choice([["FROMMEMBER", member(g)], ["BYRADIUS", "1", "km"]]))
    if store and g.chance(0.3):
        parts.append(["STOREDIST"])
    flat = []
    for p in g.shuffled(parts):
        flat += p
    keys = [g.key("geo"), gkey(g)] if store else [gkey(g)]
    args = [name] + keys + flat + opts
    return maybe_arity(g, name) or search_cmd(g, args, unspecified)


@generator("geo", "ZREADS", weight=1.5)
def _zreads(g):
    r = g.rng.random()
    if r < 0.4:
        return ["ZRANGE", gkey(g), "0", "-1", "WITHSCORES"]
    if r < 0.7:
        return ["ZSCORE", gkey(g), member(g)]
    if r < 0.9:
        return ["ZREM", gkey(g), member(g)]
    # Any integer score below 2^52 decodes to a valid position.
    return ["ZADD", gkey(g), str(g.randint(0, (1 << 52) - 1)), member(g)]
