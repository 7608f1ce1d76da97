// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "persist/env.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rankd {
namespace {

Status PosixError(const std::string& context, int err) {
  return Status::IOError(context, strerror(err));
}

class PosixWritableFile : public WritableFile {
 public:
  PosixWritableFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  ~PosixWritableFile() override { (void)Close(); }

  Status Append(std::string_view data) override {
    while (!data.empty()) {
      ssize_t n = write(fd_, data.data(), data.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        return PosixError(path_, errno);
      }
      data.remove_prefix(static_cast<size_t>(n));
    }
    return Status::OK();
  }

  Status Sync() override {
    if (fdatasync(fd_) != 0) return PosixError(path_, errno);
    return Status::OK();
  }

  Status Truncate(uint64_t size) override {
    if (ftruncate(fd_, static_cast<off_t>(size)) != 0) return PosixError(path_, errno);
    // O_APPEND moves writes to the new end by itself; lseek covers the rest.
    if (lseek(fd_, static_cast<off_t>(size), SEEK_SET) < 0) return PosixError(path_, errno);
    return Status::OK();
  }

  Status Close() override {
    if (fd_ < 0) return Status::OK();
    int rc = close(fd_);
    fd_ = -1;
    if (rc != 0) return PosixError(path_, errno);
    return Status::OK();
  }

 private:
  const std::string path_;
  int fd_;
};

class PosixSequentialFile : public SequentialFile {
 public:
  PosixSequentialFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  ~PosixSequentialFile() override { close(fd_); }

  Status Read(size_t n, std::string_view* result, char* scratch) override {
    size_t got = 0;
    while (got < n) {
      ssize_t r = read(fd_, scratch + got, n - got);
      if (r < 0) {
        if (errno == EINTR) continue;
        return PosixError(path_, errno);
      }
      if (r == 0) break;
      got += static_cast<size_t>(r);
    }
    *result = std::string_view(scratch, got);
    return Status::OK();
  }

 private:
  const std::string path_;
  const int fd_;
};

class PosixEnv : public Env {
 public:
  Status NewWritableFile(const std::string& path, std::unique_ptr<WritableFile>* out) override {
    return Open(path, O_WRONLY | O_CREAT | O_TRUNC, out);
  }
  Status NewAppendableFile(const std::string& path, std::unique_ptr<WritableFile>* out) override {
    return Open(path, O_WRONLY | O_CREAT | O_APPEND, out);
  }
  Status NewSequentialFile(const std::string& path,
                           std::unique_ptr<SequentialFile>* out) override {
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return PosixError(path, errno);
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    *out = std::make_unique<PosixSequentialFile>(path, fd);
    return Status::OK();
  }
  bool FileExists(const std::string& path) override { return access(path.c_str(), F_OK) == 0; }
  Status GetFileSize(const std::string& path, uint64_t* size) override {
    struct stat st;
    if (stat(path.c_str(), &st) != 0) return PosixError(path, errno);
    *size = static_cast<uint64_t>(st.st_size);
    return Status::OK();
  }
  Status RenameFile(const std::string& from, const std::string& to) override {
    if (rename(from.c_str(), to.c_str()) != 0) return PosixError(from, errno);
    return Status::OK();
  }
  Status RemoveFile(const std::string& path) override {
    if (unlink(path.c_str()) != 0) return PosixError(path, errno);
    return Status::OK();
  }
  Status TruncateFile(const std::string& path, uint64_t size) override {
    int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return PosixError(path, errno);
    int rc = ftruncate(fd, static_cast<off_t>(size));
    if (rc == 0) rc = fsync(fd);
    int err = errno;
    close(fd);
    if (rc != 0) return PosixError(path, err);
    return Status::OK();
  }
  Status CreateDir(const std::string& path) override {
    if (mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) return PosixError(path, errno);
    return Status::OK();
  }
  Status SyncDir(const std::string& path) override {
    int fd = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return PosixError(path, errno);
    int rc = fsync(fd);
    int err = errno;
    close(fd);
    if (rc != 0) return PosixError(path, err);
    return Status::OK();
  }
  Status GetChildren(const std::string& path, std::vector<std::string>* names) override {
    names->clear();
    DIR* d = opendir(path.c_str());
    if (!d) return PosixError(path, errno);
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..") names->push_back(std::move(n));
    }
    closedir(d);
    return Status::OK();
  }

 private:
  Status Open(const std::string& path, int flags, std::unique_ptr<WritableFile>* out) {
    int fd = open(path.c_str(), flags | O_CLOEXEC, 0644);
    if (fd < 0) return PosixError(path, errno);
    *out = std::make_unique<PosixWritableFile>(path, fd);
    return Status::OK();
  }
};

}  // namespace

Env* Env::Default() {
  static PosixEnv* env = new PosixEnv;
  return env;
}

std::string DirName(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string JoinPath(const std::string& dir, const std::string& name) {
  if (dir.empty() || dir == ".") return name;
  if (dir.back() == '/') return dir + name;
  return dir + "/" + name;
}

Status ReadFileToString(Env* env, const std::string& path, std::string* out) {
  out->clear();
  std::unique_ptr<SequentialFile> file;
  Status s = env->NewSequentialFile(path, &file);
  if (!s.ok()) return s;
  std::string scratch(1 << 16, '\0');
  for (;;) {
    std::string_view chunk;
    s = file->Read(scratch.size(), &chunk, scratch.data());
    if (!s.ok()) return s;
    if (chunk.empty()) return Status::OK();
    out->append(chunk);
  }
}

Status WriteFileAtomic(Env* env, const std::string& path, std::string_view data) {
  return WriteFileVia(env, path, path + ".tmp",
                      [&](WritableFile* file) { return file->Append(data); });
}

Status WriteFileVia(Env* env, const std::string& path, const std::string& tmp_path,
                    const std::function<Status(WritableFile*)>& write) {
  std::unique_ptr<WritableFile> file;
  Status s = env->NewWritableFile(tmp_path, &file);
  if (!s.ok()) return s;
  s = write(file.get());
  if (s.ok()) s = file->Sync();
  if (s.ok()) s = file->Close();
  if (s.ok()) s = env->RenameFile(tmp_path, path);
  if (s.ok()) s = env->SyncDir(DirName(path));
  if (!s.ok()) {
    (void)file->Close();
    (void)env->RemoveFile(tmp_path);
  }
  return s;
}

}  // namespace rankd
