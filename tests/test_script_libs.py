"""The struct and cmsgpack Lua libraries, byte for byte against redis-server 7.0: every
format letter and MessagePack type both ways, the size boundaries, and the error texts."""

import pytest


pytestmark = pytest.mark.differential

HEX = ("local function hex(s) return (s:gsub('.', function(c) "
       "return string.format('%02x', c:byte()) end)) end ")
# Unpacked values as strings, so floats compare exactly as Lua prints them.
SHOW = "local t = {%s} for i = 1, #t do t[i] = tostring(t[i]) end return t"


STRUCT_PACK = [
    "'>i16', -1", "'<i16', -1", "'!4bxhi', 1, 2, 3", "'>b', 300", "'<d', 1.5", "'>f', 1.5",
    "'s', 'ab'", "'c', 'ab'", "'c0', 'abc'", "'>I3', 70000", "'<l', -2", "'>L', 2^63",
    "'>i', 2^40", "'>i8', -2^63", "'>i8', 2^64", "'>I8', -1", "'>H', 1.7", "'>h', -1.7",
    "'=hH', -2, 2", "'<T', 5", "'!2 b h b', 1, 2, 3", "'!bd', 1, 2", "'!8bdb', 1, 2, 3",
    "'i3c5', 1, 'abcde'", "'>bxxxb', 1, 2", "'c2s', 'ab', 'cd'", "'>I', 4294967295",
    "'<i1', 127", "'<I2', 65535",
]
STRUCT_UNPACK = [
    "'>i16', string.rep('\\255', 16)", "'<i3', '\\255\\255\\255'", "'>I8', string.rep('\\255', 8)",
    "'bBhH', '\\255\\255\\255\\255\\255\\255'", "'bc0', struct.pack('bc0', 2, 'hi')",
    "'s', 'ab\\0cd'", "'>d', struct.pack('>d', 1.25)", "'i', 'abcdefgh', 5",
    "'!4bi', struct.pack('!4bi', 1, 2)", "'xxb', 'abc'", "'<f', struct.pack('<f', 0.1)",
    "'>i9', string.rep('\\255', 9)", "'>i9', '\\1' .. string.rep('\\0', 8)", "'c3', 'abcdef', 2",
    "'ss', 'a\\0b\\0'", "'>lL', struct.pack('>lL', -5, 5)", "'T', struct.pack('T', 77)",
]
STRUCT_ERRORS = [
    "struct.pack('z', 1)", "struct.pack('c3', 'ab')", "struct.pack('i40', 1)",
    "struct.pack('!3i', 1)", "struct.pack('i99999999999', 1)", "struct.unpack('i', 'ab')",
    "struct.unpack('i', 'abcd', 0)", "struct.unpack('c0', 'abc')", "struct.unpack('s', 'abc')",
    "struct.size('s')", "struct.size('c0')", "struct.size('z')", "struct.size('<!4bi')",
    "struct.pack('i', 'x')", "struct.pack('i')", "struct.unpack('z', 'abcd')", "struct.pack()",
    "struct.pack('! 8 d b d', 1, 2, 3)", "struct.size('!8bd')", "struct.size('i3c5')",
    "struct.unpack('c0', struct.pack('bc0', 2, 'hi'))", "struct.unpack('>d', 'abc')",
]


def test_struct(pair):
    for args in STRUCT_PACK:
        pair.run("EVAL", HEX + "return hex(struct.pack(%s))" % args, 0)
        pair.run("EVAL", "return struct.size(%s)" % args.split(",")[0], 0)
    for args in STRUCT_UNPACK:
        pair.run("EVAL", SHOW % ("struct.unpack(%s)" % args), 0)
    for expr in STRUCT_ERRORS:
        pair.run("EVAL", "return " + expr, 0)


MSGPACK_VALUES = [
    "1", "-1", "127", "128", "255", "256", "65535", "65536", "4294967295", "4294967296", "-32",
    "-33", "-128", "-129", "-32768", "-32769", "-2147483648", "-2147483649", "2^63", "-2^63",
    "2^64", "1.5", "0.1", "1/0", "-1/0", "0/0", "'abc'", "string.rep('x', 31)",
    "string.rep('x', 32)", "string.rep('x', 255)", "string.rep('x', 256)", "string.rep('x', 65535)",
    "string.rep('x', 65536)", "true", "false", "nil", "{}", "{1,2,3}", "{a=1}", "{1,2,nil,4}",
    "{[2]=1}", "{[1.5]=1}", "{1, {2, {3}}}", "1, 2, 'x'", "function() end", "cjson.null",
    "{[true]=1}", "-0.0", "3e9", "-3e9", "2^53+1", "{x={y={z=1}}}", "KEYS", "{[0]=1}",
    "{[-1]=1}", "{1, 2, [4]=4}", "{'a', {b='c'}, 3.25}",
]
MSGPACK_INPUTS = [
    "'\\1'", "'\\204\\255'", "'\\205\\1\\2'", "'\\211'", "'\\192\\195\\194'", "'\\147\\1\\2\\3'",
    "'\\129\\161a\\1'", "'\\202\\63\\192\\0\\0'", "'\\203\\63\\248\\0\\0\\0\\0\\0\\0'",
    "'\\196\\1a'", "'\\193'", "'\\217\\2ab'", "'\\218\\0\\2ab'", "'\\219\\0\\0\\0\\2ab'",
    "'\\220\\0\\1\\1'", "'\\221\\0\\0\\0\\1\\1'", "'\\222\\0\\1\\1\\2'", "'\\223\\0\\0\\0\\1\\1\\2'",
    "'\\208\\255'", "'\\209\\255\\254'", "'\\210\\255\\255\\255\\254'",
    "'\\211\\255\\255\\255\\255\\255\\255\\255\\254'",
    "'\\207\\255\\255\\255\\255\\255\\255\\255\\255'", "'\\206\\255\\255\\255\\255'",
    "'\\199\\1\\1a'", "'\\212\\1\\2'", "'\\147\\1'", "'\\218\\0'", "''", "'\\1\\2\\3'",
    "'\\145\\145\\145\\1'", "'\\230'", "'\\128'", "'\\144'", "'\\130\\1\\2\\1\\3'", "1",
    "string.rep('\\145', 100000) .. '\\1'", "string.rep('\\1', 100000)",
]
MSGPACK_CALLS = [
    "cmsgpack.unpack_one('\\1\\2\\3')", "cmsgpack.unpack_one('\\1\\2\\3', 1)",
    "cmsgpack.unpack_one('\\1\\2\\3', 2)", "cmsgpack.unpack_one('\\1\\2\\3', 3)",
    "cmsgpack.unpack_one('\\1\\2\\3', 4)", "cmsgpack.unpack_one('\\1\\2\\3', -1)",
    "cmsgpack.unpack_limit('\\1\\2\\3', 2)", "cmsgpack.unpack_limit('\\1\\2\\3', 0)",
    "cmsgpack.unpack_limit('\\1\\2\\3', 0, 1)", "cmsgpack.unpack_limit('\\1\\2\\3', 5, 1)",
    "cmsgpack.unpack_limit('\\1\\2\\3', -1)", "cmsgpack.unpack_limit('\\1\\2\\3')",
    "cmsgpack.unpack()", "cmsgpack.unpack_one('')", "cmsgpack.unpack_limit('', 1)",
    "cmsgpack.unpack_one('\\1', 'x')", "cmsgpack.pack()", "cmsgpack.unpack_one('\\147\\1', 0)",
]


def test_cmsgpack(pair):
    for value in MSGPACK_VALUES:
        pair.run("EVAL", HEX + "return hex(cmsgpack.pack(%s))" % value, 1, "k")
        pair.run("EVAL", "return cjson.encode({cmsgpack.unpack(cmsgpack.pack(%s))})" % value, 0)
    for data in MSGPACK_INPUTS:
        pair.run("EVAL", "return cjson.encode({cmsgpack.unpack(%s)})" % data, 0)
    for call in MSGPACK_CALLS:
        pair.run("EVAL", "return cjson.encode({%s})" % call, 0)
    # Nesting past 16 levels packs nil; big arrays and maps switch header sizes.
    pair.run("EVAL", HEX + "local t = {} local c = t for i = 1, 20 do c[1] = {} c = c[1] end "
                           "return hex(cmsgpack.pack(t))", 0)
    pair.run("EVAL", HEX + "local t = {} for i = 1, 20 do t[i] = i end return hex(cmsgpack.pack(t))", 0)
    pair.run("EVAL", "local t = {} for i = 1, 20 do t['k'..i] = i end return #cmsgpack.pack(t)", 0)
    pair.run("EVAL", HEX + "local t = {} for i = 1, 70000 do t[i] = 1 end "
                           "return hex(cmsgpack.pack(t):sub(1, 6))", 0)
    pair.run("EVAL", "local t = {} for i = 1, 70000 do t['k'..i] = i end "
                     "local u = cmsgpack.unpack(cmsgpack.pack(t)) return {u.k1, u.k70000}", 0)
    pair.run("EVAL", "return #cmsgpack.pack(redis)", 0)
