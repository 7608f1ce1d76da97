"""Geo: GEOADD GEOPOS GEODIST GEOHASH GEORADIUS GEORADIUSBYMEMBER (and _RO) GEOSEARCH
GEOSEARCHSTORE on the sorted-set engine, with Redis 7.0's exact replies, scores and error
texts (every expected value here was taken from redis-server 7.0.15)."""

import pytest

from util import NOT_FLOAT, NOT_INTEGER, SYNTAX, WRONGTYPE, arity, err

PALERMO = ("13.361389", "38.115556", "Palermo")
CATANIA = ("15.087269", "37.502669", "Catania")


@pytest.fixture
def sicily(raw):
    assert raw.execute("GEOADD", "Sicily", *PALERMO, *CATANIA) == 2
    return raw


def test_geoadd_scores_are_redis_geohashes(sicily):
    r = sicily
    assert r.execute("ZRANGE", "Sicily", "0", "-1", "WITHSCORES") == \
        [b"Palermo", b"3479099956230698", b"Catania", b"3479447370796909"]
    assert r.execute("OBJECT", "ENCODING", "Sicily") == b"listpack"
    assert r.execute("GEOADD", "Sicily", "NX", "CH", *PALERMO, "15", "37", "New") == 1
    assert r.execute("GEOADD", "Sicily", "XX", "CH", "13", "38", "Palermo", "1", "1", "No") == 1
    assert r.execute("ZSCORE", "Sicily", "No") is None
    assert r.execute("GEOADD", "Sicily", "NX", "XX", *PALERMO) == SYNTAX
    assert r.execute("GEOADD", "Sicily", "NX", "1", "2") == SYNTAX
    assert r.execute("GEOADD", "Sicily", "CH", "CH", "CH") == SYNTAX
    assert r.execute("GEOADD", "Sicily", "200", "10", "x") == \
        err("ERR invalid longitude,latitude pair 200.000000,10.000000")
    assert r.execute("GEOADD", "Sicily", "10", "86", "x") == \
        err("ERR invalid longitude,latitude pair 10.000000,86.000000")
    assert r.execute("GEOADD", "Sicily", "abc", "1", "x") == NOT_FLOAT
    r.execute("SET", "str", "x")
    assert r.execute("GEOADD", "str", "1", "1", "a") == WRONGTYPE
    assert r.execute("GEOADD", "str", "200", "1", "a") == \
        err("ERR invalid longitude,latitude pair 200.000000,1.000000")  # before the type
    assert r.execute("GEOADD", "Sicily", "1", "1") == arity("geoadd")


def test_geopos_geodist_geohash(sicily):
    r = sicily
    assert r.execute("GEOPOS", "Sicily", "Palermo", "nope") == \
        [[b"13.36138933897018433", b"38.11555639549629859"], None]
    assert r.execute_raw("GEOPOS", "Sicily", "nope")[1] == b"*1\r\n*-1\r\n"
    assert r.execute("GEOPOS", "Sicily") == []
    assert r.execute("GEOPOS", "missing", "a") == [None]
    assert r.execute("GEODIST", "Sicily", "Palermo", "Catania") == b"166274.1516"
    assert r.execute("GEODIST", "Sicily", "Palermo", "Catania", "km") == b"166.2742"
    assert r.execute("GEODIST", "Sicily", "Palermo", "Catania", "MI") == b"103.3182"
    assert r.execute("GEODIST", "Sicily", "Palermo", "Palermo") == b"0.0000"
    assert r.execute("GEODIST", "Sicily", "Palermo", "nope") is None
    assert r.execute("GEODIST", "Sicily", "Palermo", "Catania", "parsec") == \
        err("ERR unsupported unit provided. please use M, KM, FT, MI")
    assert r.execute("GEODIST", "Sicily", "a", "b", "km", "x") == SYNTAX
    assert r.execute("GEOHASH", "Sicily", "Palermo", "Catania", "nope") == \
        [b"sqc8b49rny0", b"sqdtr74hyu0", None]
    r.execute("SET", "str", "x")
    for cmd in (("GEOPOS", "str", "a"), ("GEOHASH", "str", "a"), ("GEODIST", "str", "a", "b")):
        assert r.execute(*cmd) == WRONGTYPE


def test_geopos_resp3(sicily):
    r = sicily
    r.execute("HELLO", "3")
    assert r.execute_raw("GEOPOS", "Sicily", "Palermo", "nope")[1] == \
        b"*2\r\n*2\r\n,13.36138933897018433\r\n,38.11555639549629859\r\n_\r\n"
    assert r.execute_raw("GEODIST", "Sicily", "Palermo", "Catania")[1] == \
        b"$11\r\n166274.1516\r\n"


def test_georadius(sicily):
    r = sicily
    assert r.execute("GEORADIUS", "Sicily", "15", "37", "200", "km", "WITHDIST", "ASC") == \
        [[b"Catania", b"56.4413"], [b"Palermo", b"190.4424"]]
    assert r.execute("GEORADIUS", "Sicily", "15", "37", "200", "km", "WITHCOORD", "WITHHASH",
                     "DESC", "COUNT", "1") == \
        [[b"Palermo", 3479099956230698, [b"13.36138933897018433", b"38.11555639549629859"]]]
    assert r.execute("GEORADIUSBYMEMBER", "Sicily", "Palermo", "200", "km", "ASC") == \
        [b"Palermo", b"Catania"]
    assert r.execute("GEORADIUSBYMEMBER", "Sicily", "nope", "200", "km") == \
        err("ERR could not decode requested zset member")
    assert r.execute("GEORADIUS", "Sicily", "15", "37", "200", "km", "STORE", "d",
                     "WITHDIST") == err("ERR STORE option in GEORADIUS is not compatible with "
                                        "WITHDIST, WITHHASH and WITHCOORD options")
    assert r.execute("GEORADIUS", "Sicily", "15", "37", "200", "km", "STOREDIST", "d") == 2
    assert r.execute("ZRANGE", "d", "0", "-1", "WITHSCORES") == \
        [b"Catania", b"56.441257870158204", b"Palermo", b"190.44242984775784"]
    assert r.execute("GEORADIUS_RO", "Sicily", "15", "37", "200", "km", "STORE", "d") == SYNTAX
    assert r.execute("GEORADIUS", "Sicily", "15", "37", "-1", "km") == \
        err("ERR radius cannot be negative")
    assert r.execute("GEORADIUS", "Sicily", "15", "37", "x", "km") == \
        err("ERR need numeric radius")
    assert r.execute("GEORADIUS", "Sicily", "15", "37", "1", "km", "COUNT", "0") == \
        err("ERR COUNT must be > 0")
    assert r.execute("GEORADIUS", "Sicily", "15", "37", "1", "km", "COUNT", "x") == NOT_INTEGER
    assert r.execute("GEORADIUS", "Sicily", "15", "37", "1", "km", "ANY") == \
        err("ERR the ANY argument requires COUNT argument")
    assert r.execute("GEORADIUS", "missing", "15", "37", "1", "km", "STORE", "d") == 0
    assert r.execute("EXISTS", "d") == 0
    assert r.execute("GEORADIUSBYMEMBER", "missing", "m", "x", "km") == []


def test_geosearch(sicily):
    r = sicily
    assert r.execute("GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYBOX", "400", "400",
                     "km", "ASC", "WITHDIST") == \
        [[b"Catania", b"56.4413"], [b"Palermo", b"190.4424"]]
    assert r.execute("GEOSEARCH", "Sicily", "FROMMEMBER", "Palermo", "BYBOX", "100", "400",
                     "km", "ASC") == [b"Palermo"]
    assert r.execute("GEOSEARCH", "Sicily", "BYRADIUS", "10", "km", "ASC", "ASC") == \
        err("ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for GEOSEARCH")
    assert r.execute("geosearch", "Sicily", "FROMMEMBER", "Palermo", "ASC", "ASC", "ASC") == \
        err("ERR exactly one of BYRADIUS and BYBOX can be specified for geosearch")
    assert r.execute("GEOSEARCH", "Sicily", "FROMMEMBER", "Palermo", "FROMLONLAT", "1", "1",
                     "BYRADIUS", "1", "km") == SYNTAX
    assert r.execute("GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYBOX", "-1", "1",
                     "km") == err("ERR height or width cannot be negative")
    assert r.execute("GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "1", "km",
                     "STORE", "x") == SYNTAX
    assert r.execute("GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS",
                     "200", "km", "COUNT", "1", "DESC") == 1
    assert r.execute("ZRANGE", "d", "0", "-1", "WITHSCORES") == \
        [b"Palermo", b"3479099956230698"]
    assert r.execute("GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS",
                     "200", "km", "WITHDIST") == \
        err("ERR GEOSEARCHSTORE is not compatible with WITHDIST, WITHHASH and WITHCOORD "
            "options")
    assert r.execute("GEOSEARCHSTORE", "d", "missing", "FROMLONLAT", "15", "37", "BYRADIUS",
                     "200", "km") == 0
    assert r.execute("EXISTS", "d") == 0
    assert r.execute("GEOSEARCH", "Sicily", "FROMLONLAT", "15") == arity("geosearch")


def test_geopos_of_any_score(raw):
    """Scores no GEOADD writes (negative, huge) decode as Redis decodes them on x86-64."""
    raw.execute("ZADD", "z", "-1", "a", "-0.5", "b", "1e300", "c")
    assert raw.execute("GEOPOS", "z", "a", "b", "c") == [
        [b"180", b"85.0511287799999991"],
        [b"-179.99999731779098511", b"-85.05112751263942528"],
        [b"-179.99999731779098511", b"-85.05112751263942528"]]
    assert raw.execute("GEOHASH", "z", "a", "b") == [b"bp05b5048p0", b"00bh0hbj200"]
