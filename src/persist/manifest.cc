// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "persist/manifest.h"

#include <charconv>
#include <sstream>

#include "persist/format.h"

namespace rankd {

uint64_t Manifest::max_seq() const {
  uint64_t m = 0;
  for (const File& f : files) m = std::max(m, f.seq);
  return m;
}

const Manifest::File* Manifest::base_file() const {
  return !files.empty() && files[0].base ? &files[0] : nullptr;
}

const Manifest::File* Manifest::last_incr() const {
  return !files.empty() && !files.back().base ? &files.back() : nullptr;
}

std::string Manifest::Serialize() const {
  std::string out;
  for (const File& f : files) {
    out += "file " + f.name + " seq " + std::to_string(f.seq) + " type " + (f.base ? "b" : "i") +
           "\n";
  }
  return out;
}

Status Manifest::Parse(const std::string& name, std::string_view text, Manifest* out) {
  out->files.clear();
  std::istringstream in{std::string(text)};
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    lineno++;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string k1, fname, k2, seq, k3, type, extra;
    words >> k1 >> fname >> k2 >> seq >> k3 >> type;
    uint64_t seqv = 0;
    auto [p, ec] = std::from_chars(seq.data(), seq.data() + seq.size(), seqv);
    bool ok = k1 == "file" && !fname.empty() && fname.find('/') == std::string::npos &&
              k2 == "seq" && ec == std::errc() && p == seq.data() + seq.size() && k3 == "type" &&
              (type == "b" || type == "i") && !(words >> extra);
    if (!ok) return Status::Corruption(name + ": invalid line " + std::to_string(lineno));
    bool base = type == "b";
    if (base && !out->files.empty()) {
      return Status::Corruption(name + ": base file not first (line " + std::to_string(lineno) + ")");
    }
    out->files.push_back({fname, seqv, base});
  }
  return Status::OK();
}

std::string BaseFileName(const std::string& appendfilename, uint64_t seq) {
  return appendfilename + "." + std::to_string(seq) + std::string(format::kBaseSuffix);
}

std::string IncrFileName(const std::string& appendfilename, uint64_t seq) {
  return appendfilename + "." + std::to_string(seq) + std::string(format::kIncrSuffix);
}

std::string ManifestFileName(const std::string& appendfilename) {
  return appendfilename + std::string(format::kManifestSuffix);
}

Status ReadManifest(Env* env, const std::string& dir, const std::string& appendfilename,
                    Manifest* out) {
  const std::string path = JoinPath(dir, ManifestFileName(appendfilename));
  if (!env->FileExists(path)) return Status::NotFound(path);
  std::string text;
  Status s = ReadFileToString(env, path, &text);
  if (!s.ok()) return s;
  return Manifest::Parse(path, text, out);
}

Status WriteManifest(Env* env, const std::string& dir, const std::string& appendfilename,
                     const Manifest& m) {
  return WriteFileAtomic(env, JoinPath(dir, ManifestFileName(appendfilename)), m.Serialize());
}

}  // namespace rankd
