// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/acl_categories.h"

#include "server/command.h"

namespace rankd {
namespace {

// Where Redis 7.0's command table differs from what flags and family say.
struct Exception {
  std::string_view name;
  uint64_t add;
  uint64_t remove = 0;
};
constexpr Exception kExceptions[] = {
    {"ping", kAclConnection},       {"echo", kAclConnection},
    {"auth", kAclConnection},       {"hello", kAclConnection},
    {"quit", kAclConnection},       {"reset", kAclConnection},
    {"select", kAclConnection},     {"command", kAclConnection},
    {"client", kAclConnection},     {"flushall", kAclKeyspace | kAclDangerous},
    {"flushdb", kAclKeyspace | kAclDangerous},
    {"keys", kAclKeyspace | kAclDangerous},
    {"swapdb", kAclKeyspace | kAclDangerous},
    {"dbsize", kAclKeyspace},       {"randomkey", kAclKeyspace},
    {"scan", kAclKeyspace},         {"info", kAclDangerous},
    {"lastsave", kAclAdmin | kAclDangerous},
    {"object", kAclKeyspace},       {"sort", kAclSet | kAclSortedSet | kAclDangerous},
    {"sort_ro", kAclSet | kAclSortedSet},
    {"restore", kAclKeyspace | kAclDangerous},
    {"migrate", kAclKeyspace | kAclDangerous},
    {"eval_ro", 0, kAclRead},
    {"evalsha_ro", 0, kAclRead},
    {"fcall_ro", 0, kAclRead},
};

}  // namespace

std::optional<uint64_t> AclCategoryByName(std::string_view name) {
  for (const AclCategoryName& c : kAclCategories) {
    if (EqualsIgnoreCase(c.name, name)) return c.bit;
  }
  return std::nullopt;
}

uint64_t CommandCategories(std::string_view full_name, uint32_t flags, uint64_t family) {
  uint64_t cats = family;
  if (flags & kWrite) cats |= kAclWrite;
  if (flags & kReadOnly) cats |= kAclRead;
  cats |= (flags & kFast) ? kAclFast : kAclSlow;
  if (flags & kAdmin) cats |= kAclAdmin | kAclDangerous;
  if (flags & kBlocking) cats |= kAclBlocking;
  std::string_view base = full_name.substr(0, full_name.find('|'));
  for (const Exception& e : kExceptions) {
    if (e.name == base) cats = (cats | e.add) & ~e.remove;
  }
  return cats;
}

}  // namespace rankd
