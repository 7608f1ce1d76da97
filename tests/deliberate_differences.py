"""Every place where rankd deliberately replies differently from redis-server 7.0.

This is the ONE list the differential harness consults (tests/differential.py). The key
is a check name: the upper-case command name, plus the subcommand for container commands
("OBJECT ENCODING"), or a name a generator gives a specific form ("ZRANK WITHSCORE").
A listed check is still sent to both servers (so their states stay in step), but its
replies are not compared; where the generator supplies a validator, rankd's reply is
checked against rankd's own state instead (e.g. ZRANK WITHSCORE against ZRANK + ZSCORE).

Add an entry only with an explanation a reviewer can verify (a Redis version, a doc link,
an issue number). Keep it short: every entry is compatibility we give up.
"""

DELIBERATE_DIFFERENCES = {
    "ZRANK WITHSCORE": (
        "Redis 7.2 added `ZRANK key member WITHSCORE` (reply [rank, score], or nil). "
        "redis-server 7.0 has arity 3 and answers a wrong-number-of-arguments error. "
        "rankd implements the 7.2 form (issue 4); the harness validates it against "
        "rankd's own ZRANK and ZSCORE."),
    "ZREVRANK WITHSCORE": (
        "Same as ZRANK WITHSCORE for the reverse rank (Redis 7.2)."),
}


def is_deliberate(check):
    return check in DELIBERATE_DIFFERENCES
