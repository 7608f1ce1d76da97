// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/redact.h"

#include <array>

#include "base/numbers.h"
#include "server/command.h"

namespace rankd {
namespace {

using Args = std::span<const std::string_view>;
// The arguments as logged; a rule replaces its secrets with kRedactedArg.
using Marks = std::vector<std::string_view>;

// Redis authCommand: more than 3 arguments is a syntax error before redaction.
void Auth(Args args, Marks* m) {
  if (args.size() > 3) return;
  for (size_t i = 1; i < args.size(); i++) (*m)[i] = kRedactedArg;
}

// Redis helloCommand: the protocol version first, then options in order; a
// bad version or option stops the parse.
void Hello(Args args, Marks* m) {
  if (args.size() < 2) return;
  int64_t ver = 0;
  if (!ParseInt64(args[1], &ver) || ver < 2 || ver > 3) return;
  for (size_t j = 2; j < args.size(); j++) {
    size_t more = args.size() - 1 - j;
    if (EqualsIgnoreCase(args[j], "auth") && more >= 2) {
      (*m)[j + 1] = (*m)[j + 2] = kRedactedArg;
      j += 2;
    } else if (EqualsIgnoreCase(args[j], "setname") && more >= 1) {
      j++;
    } else {
      return;
    }
  }
}

// Redis aclCommand SETUSER: the user name and all its rules.
void Acl(Args args, Marks* m) {
  if (args.size() < 3 || !EqualsIgnoreCase(args[1], "setuser")) return;
  for (size_t i = 2; i < args.size(); i++) (*m)[i] = kRedactedArg;
}

// Redis configSetCommand: values of SENSITIVE_CONFIG parameters, every pair
// looked at even after an unknown name; an odd count fails first.
void Config(Args args, Marks* m) {
  if (args.size() < 4 || args.size() % 2 != 0 || !EqualsIgnoreCase(args[1], "set")) return;
  static constexpr std::array<std::string_view, 3> kSensitive = {"requirepass", "masterauth",
                                                                 "masteruser"};
  for (size_t i = 2; i + 1 < args.size(); i += 2) {
    for (std::string_view name : kSensitive) {
      if (EqualsIgnoreCase(args[i], name)) (*m)[i + 1] = kRedactedArg;
    }
  }
}

// Redis migrateCommand: options from the 7th argument on, in order; KEYS ends
// them, an unknown option or a missing credential stops the parse.
void Migrate(Args args, Marks* m) {
  for (size_t j = 6; j < args.size(); j++) {
    size_t more = args.size() - 1 - j;
    std::string_view opt = args[j];
    if (EqualsIgnoreCase(opt, "copy") || EqualsIgnoreCase(opt, "replace")) continue;
    if (EqualsIgnoreCase(opt, "auth") && more >= 1) {
      (*m)[++j] = kRedactedArg;
    } else if (EqualsIgnoreCase(opt, "auth2") && more >= 2) {
      (*m)[j + 1] = (*m)[j + 2] = kRedactedArg;
      j += 2;
    } else {
      return;  // KEYS (the rest are keys), or an error
    }
  }
}

struct Rule {
  std::string_view command;
  void (*mark)(Args, Marks*);
};

constexpr std::array<Rule, 5> kRules = {{
    {"auth", &Auth},
    {"hello", &Hello},
    {"acl", &Acl},
    {"config", &Config},
    {"migrate", &Migrate},
}};

const Rule* FindRule(Args args) {
  if (args.empty()) return nullptr;
  for (const Rule& r : kRules) {
    if (EqualsIgnoreCase(args[0], r.command)) return &r;
  }
  return nullptr;
}

}  // namespace

std::vector<std::string_view> RedactSecrets(Args args) {
  std::vector<std::string_view> out(args.begin(), args.end());
  if (const Rule* rule = FindRule(args)) rule->mark(args, &out);
  return out;
}

}  // namespace rankd
