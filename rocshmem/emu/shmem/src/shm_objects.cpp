#include "shm_objects.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "bootstrap.hpp"
#include "log.hpp"
#include "shared_memory.hpp"
#include "wait.hpp"

namespace rocshmem_emu {

namespace {
std::string g_dir = "/dev/shm";

std::string path_of(const std::string& name) { return g_dir + "/" + name; }
}  // namespace

const std::string& object_dir() { return g_dir; }

void set_object_dir(const std::string& dir) {
  g_dir = dir;
  while (g_dir.size() > 1 && g_dir.back() == '/') g_dir.pop_back();
}

unsigned long long own_pid_namespace() {
  static const unsigned long long ns = [] {
    struct stat sb;
    return stat("/proc/self/ns/pid", &sb) == 0 ? static_cast<unsigned long long>(sb.st_ino) : 0ULL;
  }();
  return ns;
}

std::string new_object_name(char role, const std::string& token) {
  return std::string(kObjectPrefix) + std::to_string(own_pid_namespace()) + "-" + std::to_string(getpid()) + "-" +
         role + "-" + token;
}

bool parse_object_name(const std::string& name, ObjectName* parsed) {
  const size_t prefix = strlen(kObjectPrefix);
  if (name.compare(0, prefix, kObjectPrefix) != 0) return false;
  const char* p = name.c_str() + prefix;
  char* end = nullptr;
  errno = 0;
  unsigned long long ns = strtoull(p, &end, 10);
  if (end == p || *end != '-' || errno) return false;
  p = end + 1;
  long pid = strtol(p, &end, 10);
  if (end == p || *end != '-' || pid <= 0 || pid > (1L << 30)) return false;
  p = end + 1;
  if ((*p != 'c' && *p != 'h') || p[1] != '-') return false;
  parsed->name = name;
  parsed->pidns = ns;
  parsed->pid = static_cast<int>(pid);
  parsed->role = *p;
  parsed->token = p + 2;
  return true;
}

std::vector<ObjectName> list_objects() {
  std::vector<ObjectName> found;
  DIR* d = opendir(g_dir.c_str());
  if (!d) return found;
  while (dirent* e = readdir(d)) {
    ObjectName parsed;
    if (parse_object_name(e->d_name, &parsed)) found.push_back(parsed);
  }
  closedir(d);
  return found;
}

int create_object(const std::string& name, size_t bytes) {
  const std::string path = path_of(name);
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return -1;
  if (!emu_common::own_and_size(fd, bytes)) {
    int saved = errno;
    close(fd);
    unlink(path.c_str());
    errno = saved;
    return -1;
  }
  return fd;
}

int open_object(const std::string& name) {
  int fd = open(path_of(name).c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat sb;
  if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_uid != geteuid()) {
    close(fd);
    errno = EPERM;  // not ours: never trust an object another user could have planted
    return -1;
  }
  return fd;
}

void unlink_object(const std::string& name) { unlink(path_of(name).c_str()); }

int sweep_dead_creators() {
  const unsigned long long ns = own_pid_namespace();
  int removed = 0;
  for (const ObjectName& o : list_objects()) {
    if (o.pidns != ns || !process_is_gone(o.pid)) continue;
    struct stat sb;
    if (lstat(path_of(o.name).c_str(), &sb) != 0 || sb.st_uid != geteuid()) continue;
    debug_log(1, "removing %s/%s: its creator (pid %d) is gone", g_dir.c_str(), o.name.c_str(), o.pid);
    if (unlink(path_of(o.name).c_str()) == 0) removed++;
  }
  return removed;
}

bool free_bytes(unsigned long long* bytes) {
  struct statvfs sv;
  if (statvfs(g_dir.c_str(), &sv) != 0 || sv.f_blocks == 0) return false;
  *bytes = static_cast<unsigned long long>(sv.f_bavail) * sv.f_frsize;
  return true;
}

}  // namespace rocshmem_emu
