// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "app/options.h"

#include <fstream>
#include <sstream>

namespace rankd {

std::string ParseCommandLine(int argc, char** argv, StartupOptions* out) {
  int i = 1;
  if (i < argc) {
    std::string first = argv[i];
    if (first == "-v" || first == "--version") {
      out->show_version = true;
      return "";
    }
    if (first == "-h" || first == "--help") {
      out->show_help = true;
      return "";
    }
    if (first.rfind("--", 0) != 0) {
      out->config_file = first;
      i++;
    }
  }
  for (; i < argc; i++) {
    std::string word = argv[i];
    if (word.rfind("--", 0) != 0 || word.size() == 2) {
      return "Invalid argument '" + word + "': options are written --name value";
    }
    std::string name = word.substr(2), value;
    bool first_value = true;
    while (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) {
      if (!first_value) value += ' ';
      value += argv[++i];
      first_value = false;
    }
    out->settings.emplace_back(std::move(name), std::move(value));
  }
  return "";
}

std::string ApplyStartupOptions(const StartupOptions& opts, ConfigTable* table) {
  if (!opts.config_file.empty()) {
    std::ifstream in(opts.config_file);
    if (!in) return "Fatal error, can't open config file '" + opts.config_file + "'";
    std::stringstream ss;
    ss << in.rdbuf();
    std::vector<std::pair<std::string, std::vector<std::string>>> lines;
    std::string error = ParseConfigText(ss.str(), &lines);
    if (!error.empty()) return "Bad config file '" + opts.config_file + "': " + error;
    for (auto& [name, args] : lines) {
      std::string value;
      for (size_t j = 0; j < args.size(); j++) value += (j ? " " : "") + args[j];
      error = table->Set(name, value, /*at_startup=*/true);
      if (!error.empty()) {
        return "Bad directive in config file '" + opts.config_file + "': '" + name + " " + value +
               "': " + error;
      }
    }
  }
  for (auto& [name, value] : opts.settings) {
    std::string error = table->Set(name, value, /*at_startup=*/true);
    if (!error.empty()) return "Bad option --" + name + " '" + value + "': " + error;
  }
  return "";
}

}  // namespace rankd
