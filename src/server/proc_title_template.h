// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// proc-title-template, as Redis 7.0: the process title is the template with
// each {variable} replaced ("{{" is a literal "{"), trimmed of spaces. The
// variables: {title} (argv[0]), {listen-addr} (the first bind address, or
// "*", and the port: "127.0.0.1:6379"; "unixsocket:<path>" without a TCP
// port), {server-mode} ("[cluster]" or nothing), {port}, {tls-port},
// {unixsocket}, {config-file}. set-proc-title no leaves the title alone.

#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "server/config.h"

namespace rankd {

// `tmpl` expanded for `config` with `title` as {title}; nullopt when it has
// an unknown variable or an unclosed "{".
std::optional<std::string> ExpandProcTitle(std::string_view tmpl, const Config& config,
                                           std::string_view title);

// The CONFIG SET check: "" or Redis's error for a template that expands to
// nothing or is malformed.
std::string RefuseProcTitleTemplate(std::string_view tmpl);

// Sets the process title from `config` (base/proc_title.h) when
// set-proc-title is yes.
void ApplyProcTitle(const Config& config);

}  // namespace rankd
