"""What Redis Cluster data means, computed locally (no server): the hash slot of a key
(CRC16 of the key or its hash tag, mod 16384), keys for a chosen slot, and CLUSTER NODES
text parsed into the topology every node must agree on. The tests compute expected
answers with these, never by asking the server under test.
"""

NSLOTS = 16384


# -- key slots ---------------------------------------------------------------

def _crc16_table():
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC16 = _crc16_table()


def _crc16(data):
    """CRC16-CCITT (XModem), the checksum Redis Cluster hashes keys with."""
    crc = 0
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC16[(crc >> 8) ^ byte]
    return crc


def key_slot(key):
    """The hash slot of `key` (str or bytes), hash tags included: the part between the
    first '{' and the next '}' when that part is not empty."""
    if isinstance(key, str):
        key = key.encode()
    start = key.find(b"{")
    if start >= 0:
        end = key.find(b"}", start + 1)
        if end > start + 1:
            key = key[start + 1:end]
    return _crc16(key) % NSLOTS


_TAGS = {}


def tag_for_slot(slot, prefix="t"):
    """A short string hashing to `slot` ("<prefix><n>"; a table per prefix, built once)."""
    table = _TAGS.get(prefix)
    if table is None:
        table = _TAGS[prefix] = {}
        n = 0
        while len(table) < NSLOTS:
            tag = "%s%d" % (prefix, n)
            table.setdefault(key_slot(tag), tag)
            n += 1
    return table[slot]


def key_for_slot(slot, prefix="t"):
    """A key that hashes to `slot`: a hash tag from tag_for_slot."""
    return "{%s}:%s" % (tag_for_slot(slot, prefix), prefix)


# -- CLUSTER NODES -------------------------------------------------------------

def parse_cluster_nodes(text):
    """CLUSTER NODES text -> {node_id: dict(addr, port, bus_port, flags (set), master,
    link, slots (tuple of (start, end)), importing/migrating (tuples))}."""
    out = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        f = line.split(" ")
        addr = f[1]                 # ip:port@cport[,hostname]
        hostport, _, rest = addr.partition("@")
        ip, _, port = hostport.rpartition(":")
        slots, special = [], []
        for s in f[8:]:
            if s.startswith("["):
                special.append(s)
            elif "-" in s:
                a, b = s.split("-")
                slots.append((int(a), int(b)))
            else:
                slots.append((int(s), int(s)))
        out[f[0]] = dict(addr=hostport, ip=ip, port=int(port) if port else 0,
                         bus_port=int(rest.split(",")[0]) if rest else 0,
                         flags=set(f[2].split(",")), master=f[3], ping_sent=f[4],
                         pong_recv=f[5], config_epoch=int(f[6]), link=f[7],
                         slots=tuple(slots), special=tuple(special), line=line)
    return out


def topology(nodes_view):
    """The part of a CLUSTER NODES view every node must agree on: for each node id its
    address, role, master and slot ranges (myself/link state/timestamps dropped)."""
    topo = {}
    for nid, n in nodes_view.items():
        role = "master" if "master" in n["flags"] else ("slave" if "slave" in n["flags"]
                                                         else "?")
        topo[nid] = (n["addr"], role, n["master"], n["slots"])
    return topo
