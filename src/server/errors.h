// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Redis's error replies, word for word, in one place. Each is the reply text
// without the leading '-'; pass it to ReplyBuilder::Error. Errors built from
// arguments (wrong arity, unknown command) have functions in command.h.

#pragma once

#include <string_view>

namespace rankd::err {

inline constexpr std::string_view kWrongType =
    "WRONGTYPE Operation against a key holding the wrong kind of value";
inline constexpr std::string_view kSyntax = "ERR syntax error";
inline constexpr std::string_view kNotInteger = "ERR value is not an integer or out of range";
inline constexpr std::string_view kNotFloat = "ERR value is not a valid float";
inline constexpr std::string_view kOutOfRange = "ERR index out of range";
inline constexpr std::string_view kNoSuchKey = "ERR no such key";
inline constexpr std::string_view kDbIndexOutOfRange = "ERR DB index is out of range";
inline constexpr std::string_view kNoAuth = "NOAUTH Authentication required.";
inline constexpr std::string_view kWrongPass =
    "WRONGPASS invalid username-password pair or user is disabled.";
inline constexpr std::string_view kExecAbort =
    "EXECABORT Transaction discarded because of previous errors.";
inline constexpr std::string_view kExecWithoutMulti = "ERR EXEC without MULTI";
inline constexpr std::string_view kDiscardWithoutMulti = "ERR DISCARD without MULTI";
inline constexpr std::string_view kNestedMulti = "ERR MULTI calls can not be nested";
inline constexpr std::string_view kWatchInMulti = "ERR WATCH inside MULTI is not allowed";
inline constexpr std::string_view kNotInMulti = "ERR Command not allowed inside a transaction";
inline constexpr std::string_view kIncrOverflow = "ERR increment or decrement would overflow";
inline constexpr std::string_view kIncrFloatNaN = "ERR increment would produce NaN or Infinity";
inline constexpr std::string_view kTimeoutNotFloat = "ERR timeout is not a float or out of range";
inline constexpr std::string_view kTimeoutNegative = "ERR timeout is negative";
inline constexpr std::string_view kStringTooLong = "ERR string exceeds maximum allowed size (proto-max-bulk-len)";
inline constexpr std::string_view kMinMaxNotFloat = "ERR min or max is not a float";
inline constexpr std::string_view kMinMaxNotLex = "ERR min or max not valid string range item";
inline constexpr std::string_view kXXandNX =
    "ERR XX and NX options at the same time are not compatible";
inline constexpr std::string_view kGTLTNX =
    "ERR GT, LT, and/or NX options at the same time are not compatible";
inline constexpr std::string_view kIncrPair =
    "ERR INCR option supports a single increment-element pair";
inline constexpr std::string_view kScoreNaN = "ERR resulting score is not a number (NaN)";
inline constexpr std::string_view kWeightNotFloat = "ERR weight value is not a float";
inline constexpr std::string_view kCountNegative = "ERR value is out of range, must be positive";
inline constexpr std::string_view kDebugNotAllowed =
    "ERR DEBUG command not allowed. If the enable-debug-command option is set to \"local\", "
    "you can run it from a local connection, otherwise you need to set this option in the "
    "configuration file, and then restart the server.";
// SCRIPT DEBUG (Redis 7.0 scriptCommand; the debugger: scripting/script_debugger.h).
inline constexpr std::string_view kScriptDebugPipeline =
    "ERR SCRIPT DEBUG must be called outside a pipeline";
inline constexpr std::string_view kScriptDebugMode = "ERR Use SCRIPT DEBUG YES/SYNC/NO";
inline constexpr std::string_view kBusy =
    "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
inline constexpr std::string_view kOom =
    "OOM command not allowed when used memory > 'maxmemory'.";
inline constexpr std::string_view kProtectedModeDenied =
    "DENIED Redis is running in protected mode because protected mode is enabled and no "
    "password is set for the default user. In this mode connections are only accepted from "
    "the loopback interface. If you want to connect from external computers to Redis you may "
    "adopt one of the following solutions: 1) Just disable protected mode sending the command "
    "'CONFIG SET protected-mode no' from the loopback interface by connecting to Redis from "
    "the same host the server is running, however MAKE SURE Redis is not publicly accessible "
    "from internet if you do so. Use CONFIG REWRITE to make this change permanent. 2) "
    "Alternatively you can just disable the protected mode by editing the Redis configuration "
    "file, and setting the protected mode option to 'no', and then restarting the server. 3) "
    "If you started the server manually just for testing, restart it with the "
    "'--protected-mode no' option. 4) Setup a an authentication password for the default "
    "user. NOTE: You only need to do one of the above things in order for the server to start "
    "accepting connections from the outside.";

// Sorted-set and set families (zset_*.cc, set_family.cc).
inline constexpr std::string_view kLimitNeedsByScoreOrLex =
    "ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX";
inline constexpr std::string_view kWithScoresByLex =
    "ERR syntax error, WITHSCORES not supported in combination with BYLEX";
inline constexpr std::string_view kNumKeysPositive = "ERR numkeys should be greater than 0";
inline constexpr std::string_view kCountPositive = "ERR count should be greater than 0";
inline constexpr std::string_view kLimitNegative = "ERR LIMIT can't be negative";
inline constexpr std::string_view kNumKeysOverArgs =
    "ERR Number of keys can't be greater than number of args";
inline constexpr std::string_view kInvalidCursor = "ERR invalid cursor";
inline constexpr std::string_view kValueOutOfRange = "ERR value is out of range";
inline constexpr std::string_view kIntOutOfRange =
    "ERR value is out of range, value must between -2147483648 and 2147483647";
inline constexpr std::string_view kLongOutOfRange =
    "ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807";
// rankd only: a negative count to ZRANDMEMBER / SRANDMEMBER / HRANDFIELD whose
// reply would pass 64 MB (commands/random_picks.h).
inline constexpr std::string_view kRepeatedPicksTooLarge =
    "ERR count is out of range: a negative count's reply is limited to 64 MB";
inline constexpr std::string_view kHashNotInteger = "ERR hash value is not an integer";
inline constexpr std::string_view kHashNotFloat = "ERR hash value is not a float";
inline constexpr std::string_view kNaNOrInfinity = "ERR value is NaN or Infinity";
inline constexpr std::string_view kRankZero =
    "ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use "
    "negative to start from the end of the list";
inline constexpr std::string_view kCountNegativeLPos = "ERR COUNT can't be negative";
inline constexpr std::string_view kMaxLenNegative = "ERR MAXLEN can't be negative";

// LB.WATCH (lb_watch_family.cc).
inline constexpr std::string_view kLbWatchTop = "ERR TOP must be between 1 and 1000";
inline constexpr std::string_view kDueUnit =
    "ERR UNIT must be MS (scores are Unix times in milliseconds) or S (in seconds)";

inline constexpr std::string_view kReadOnlyReplica =
    "READONLY You can't write against a read only replica.";
inline constexpr std::string_view kNoReplicas = "NOREPLICAS Not enough good replicas to write.";
inline constexpr std::string_view kMasterDown =
    "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.";

}  // namespace rankd::err
